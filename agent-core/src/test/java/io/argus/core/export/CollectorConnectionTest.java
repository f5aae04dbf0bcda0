package io.argus.core.export;

import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

import static org.assertj.core.api.Assertions.assertThat;

/** Real sockets: the connection refuses while the collector is away and comes back by itself. */
class CollectorConnectionTest {

    @Test
    void reconnectsAfterRefusalsAndSendsTheHandshakeFirst() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        byte[] handshake = {0, 0, 0, 2, 8, 1};
        CollectorConnection connection = new CollectorConnection("127.0.0.1", port, handshake, 1 << 20, 200);
        connection.start();
        try {
            Thread.sleep(700); // several refused attempts
            assertThat(connection.send(new byte[] {0, 0, 0, 0})).as("nothing to send to").isFalse();
            try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                server.setSoTimeout(5000);
                try (Socket agent = server.accept()) {
                    DataInputStream in = new DataInputStream(agent.getInputStream());
                    byte[] first = new byte[handshake.length];
                    in.readFully(first);
                    assertThat(first).isEqualTo(handshake);
                    long deadline = System.currentTimeMillis() + 5000;
                    while (!connection.send(new byte[] {0, 0, 0, 1, 42}) && System.currentTimeMillis() < deadline) {
                        Thread.sleep(10);
                    }
                    byte[] frame = new byte[5];
                    in.readFully(frame);
                    assertThat(frame[4]).isEqualTo((byte) 42);
                }
            }
            // the collector went away again: sends are refused, then a new server gets a new handshake
            long deadline = System.currentTimeMillis() + 5000;
            while (connection.isConnected() && System.currentTimeMillis() < deadline) {
                Thread.sleep(10);
            }
            assertThat(connection.send(new byte[] {0, 0, 0, 0})).isFalse();
            try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                server.setSoTimeout(5000);
                try (Socket agent = server.accept()) {
                    byte[] first = new byte[handshake.length];
                    new DataInputStream(agent.getInputStream()).readFully(first);
                    assertThat(first).isEqualTo(handshake);
                }
            }
        } finally {
            connection.close(1000);
        }
    }
}
