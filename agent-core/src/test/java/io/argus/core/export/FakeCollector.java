package io.argus.core.export;

import io.argus.protocol.Frame;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A collector on a loopback port for exporter tests: accepts one agent connection at a time (the next once the
 * current one ends), parses its frames and counts the handshakes and the spans it received.
 */
final class FakeCollector implements Closeable {

    private final ServerSocket server;
    private final Thread reader;
    /** Span counts of the span frames received, in order, over all connections. */
    private final List<Integer> spanFrames = new ArrayList<Integer>();
    private final AtomicInteger handshakes = new AtomicInteger();
    private volatile Socket connection;

    /** Listens on {@code port}, or on a free one when 0. */
    FakeCollector(int port) throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true); // a port that served an earlier collector in the same test
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5);
        reader = new Thread(this::serve, "fake-collector-" + server.getLocalPort());
        reader.setDaemon(true);
        reader.start();
    }

    /** A loopback port nobody listens on (connects are refused). */
    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket accepted = server.accept()) {
                connection = accepted;
                DataInputStream in = new DataInputStream(accepted.getInputStream());
                while (true) {
                    byte[] body = new byte[in.readInt()];
                    in.readFully(body);
                    Frame frame = Frame.parseFrom(body);
                    if (frame.hasHandshake()) {
                        handshakes.incrementAndGet();
                    } else if (frame.hasSpans()) {
                        synchronized (spanFrames) {
                            spanFrames.add(frame.getSpans().getSpansCount());
                        }
                    }
                }
            } catch (IOException end) {
                // the agent or the test closed the connection, or the server: accept the next one
            } finally {
                connection = null;
            }
        }
    }

    int port() {
        return server.getLocalPort();
    }

    String address() {
        return "127.0.0.1:" + port();
    }

    List<Integer> spanFrames() {
        synchronized (spanFrames) {
            return new ArrayList<Integer>(spanFrames);
        }
    }

    int spans() {
        int sum = 0;
        for (int n : spanFrames()) {
            sum += n;
        }
        return sum;
    }

    int handshakes() {
        return handshakes.get();
    }

    boolean connected() {
        return connection != null;
    }

    /** Closes the agent's connection as a collector that goes away would; keeps listening for the next. */
    void dropConnection() throws IOException {
        Socket current = connection;
        if (current != null) {
            current.close();
        }
    }

    /** Stops listening and closes the agent's connection. */
    @Override
    public void close() throws IOException {
        server.close();
        dropConnection();
        try {
            reader.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
