package io.argus.core.export;

import io.argus.core.config.CollectorAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.argus.core.export.ConnectionHarness.await;
import static io.argus.core.export.ConnectionHarness.count;
import static io.argus.core.export.ConnectionHarness.listen;
import static io.argus.core.export.ConnectionHarness.readFrame;
import static io.argus.core.export.FakeCollector.freePort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real sockets, the connection driven by a thread that polls it the way the exporter loop does: it
 * refuses while the collector is away, comes back by itself with the handshake first, and a
 * collector that stops reading costs bounded memory and never blocks the sender.
 */
class CollectorConnectionTest {

    private static final byte[] HANDSHAKE = {0, 0, 0, 2, 8, 1};

    private final ConnectionHarness harness = new ConnectionHarness();

    @BeforeEach
    void captureAgentLog() {
        harness.captureAgentLog();
    }

    @AfterEach
    void restore() throws InterruptedException {
        harness.stop();
    }

    /** Polls the connection every 10 ms, like the exporter's idle loop. */
    private CollectorConnection started(int port, int maxPendingBytes, long maxBackoffMillis) {
        return started(connection(Collections.singletonList(new CollectorAddress("127.0.0.1", port)), maxPendingBytes,
                maxBackoffMillis));
    }

    /** Without acknowledgements (a handshake that does not ask for them). */
    private static CollectorConnection connection(List<CollectorAddress> addresses, int maxPendingBytes,
                                                  long maxBackoffMillis) {
        return new CollectorConnection(ConnectionSettings.to(addresses, HANDSHAKE)
                .maxPendingBytes(maxPendingBytes)
                .maxBackoffMillis(maxBackoffMillis)
                .build());
    }

    private CollectorConnection started(CollectorConnection connection) {
        return harness.drive(connection);
    }

    private String log() {
        return harness.log();
    }

    private static byte[] frame(int payloadBytes, int marker) {
        byte[] frame = new byte[4 + payloadBytes];
        frame[0] = (byte) (payloadBytes >>> 24);
        frame[1] = (byte) (payloadBytes >>> 16);
        frame[2] = (byte) (payloadBytes >>> 8);
        frame[3] = (byte) payloadBytes;
        for (int i = 4; i < frame.length; i++) {
            frame[i] = (byte) (marker + i);
        }
        return frame;
    }

    /** The agent's stream once the handshake, which must come first, has been read. */
    private static DataInputStream afterHandshake(Socket agent) throws IOException {
        DataInputStream in = new DataInputStream(agent.getInputStream());
        byte[] first = new byte[HANDSHAKE.length];
        in.readFully(first);
        assertThat(first).as("handshake first").isEqualTo(HANDSHAKE);
        return in;
    }

    @Test
    void reconnectsAfterRefusalsAndSendsTheHandshakeFirst() throws Exception {
        int port = freePort();
        CollectorConnection connection = started(port, 1 << 20, 200);
        try {
            Thread.sleep(700); // several refused attempts
            assertThat(connection.send(new byte[] {0, 0, 0, 0})).as("nothing to send to").isFalse();
            assertThat(count(log(), "collector 127.0.0.1:" + port + " unavailable (")).isEqualTo(1);
            assertThat(log()).contains("dropping data and retrying with backoff");

            try (ServerSocket server = listen(port); Socket agent = server.accept()) {
                DataInputStream in = new DataInputStream(agent.getInputStream());
                byte[] first = new byte[HANDSHAKE.length];
                in.readFully(first);
                assertThat(first).isEqualTo(HANDSHAKE);
                await("connected", connection::isConnected);
                // the collector never answers, but if it did the bytes are read and dropped
                agent.getOutputStream().write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
                agent.getOutputStream().flush();
                Thread.sleep(50);
                assertThat(connection.send(frame(1, 42))).isTrue();
                assertThat(readFrame(in)).isEqualTo(frame(1, 42));
                assertThat(connection.isConnected()).isTrue();
            }
            assertThat(log()).contains("collector 127.0.0.1:" + port + " reachable again");

            // the collector went away again: sends are refused, then a new server gets a new handshake
            await("disconnect noticed", () -> !connection.isConnected());
            assertThat(connection.send(new byte[] {0, 0, 0, 0})).isFalse();
            assertThat(count(log(), " unavailable (")).as("one WARN line per outage").isEqualTo(2);
            try (ServerSocket server = listen(port); Socket agent = server.accept()) {
                DataInputStream in = new DataInputStream(agent.getInputStream());
                byte[] first = new byte[HANDSHAKE.length];
                in.readFully(first);
                assertThat(first).isEqualTo(HANDSHAKE);
                await("connected again", connection::isConnected);
                assertThat(connection.send(frame(3, 7))).isTrue();
                assertThat(readFrame(in)).isEqualTo(frame(3, 7));
            }
            assertThat(count(log(), " reachable again")).isEqualTo(2);
        } finally {
            connection.close(1000);
        }
    }

    @Test
    void failsOverBetweenAddressesWithOneLinePerSwitchAndTheHandshakeFirst() throws Exception {
        int first = freePort();
        int second = freePort();
        String a = "127.0.0.1:" + first;
        String b = "127.0.0.1:" + second;
        CollectorConnection connection = started(connection(Arrays.asList(
                new CollectorAddress("127.0.0.1", first), new CollectorAddress("127.0.0.1", second)), 1 << 20, 200));
        try {
            Thread.sleep(1500); // both refuse: many attempts, alternating
            assertThat(connection.send(new byte[] {0, 0, 0, 0})).isFalse();
            assertThat(count(log(), " unavailable (")).as("one WARN line per address and outage").isEqualTo(2);
            assertThat(log()).contains("collector " + a + " unavailable (java.net.ConnectException")
                    .contains("); trying " + b)
                    .contains("collector " + b + " unavailable (java.net.ConnectException")
                    .contains("); trying " + a)
                    .doesNotContain("dropping data and retrying");

            try (ServerSocket server = listen(second)) {
                try (Socket agent = server.accept()) {
                    DataInputStream in = afterHandshake(agent);
                    await("connected to the second", connection::isConnected);
                    assertThat(connection.currentAddress().port).isEqualTo(second);
                    assertThat(log()).contains("sending to collector " + b);
                    assertThat(connection.send(frame(2, 5))).isTrue();
                    assertThat(readFrame(in)).isEqualTo(frame(2, 5));
                }
                // the second closes the connection (and still listens): the first is tried next, once
                await("switch logged",
                        () -> log().contains("collector " + b + " unavailable (connection closed); trying " + a));
                try (ServerSocket firstServer = listen(first); Socket agent = firstServer.accept()) {
                    DataInputStream in = afterHandshake(agent); // a new connection starts with it
                    await("connected to the first", connection::isConnected);
                    assertThat(connection.currentAddress().port).isEqualTo(first);
                    assertThat(connection.send(frame(3, 9))).isTrue();
                    assertThat(readFrame(in)).isEqualTo(frame(3, 9));
                }
            }
            assertThat(count(log(), " unavailable (")).isEqualTo(3);
            assertThat(count(log(), "sending to collector ")).isEqualTo(2);
        } finally {
            connection.close(1000);
        }
    }

    @Test
    void stalledCollectorMakesSendRefuseWithBoundedMemoryAndNothingAcceptedIsLost() throws Exception {
        int maxPending = 256 << 10;
        int payload = 16 << 10;
        int port = freePort();
        try (ServerSocket server = listen(port)) {
            CollectorConnection connection = started(port, maxPending, 200);
            try (Socket agent = server.accept()) {
                DataInputStream in = new DataInputStream(agent.getInputStream());
                byte[] first = new byte[HANDSHAKE.length];
                in.readFully(first);
                assertThat(first).isEqualTo(HANDSHAKE);
                await("connected", connection::isConnected);

                // the collector stops reading: the kernel buffers fill up, then our own buffer
                int accepted = 0;
                long slowestSendNanos = 0;
                long maxSeenPending = 0;
                for (int i = 0; i < 10_000; i++) {
                    long start = System.nanoTime();
                    boolean sent = connection.send(frame(payload, accepted));
                    slowestSendNanos = Math.max(slowestSendNanos, System.nanoTime() - start);
                    maxSeenPending = Math.max(maxSeenPending, connection.pendingBytes());
                    if (!sent) {
                        break;
                    }
                    accepted++;
                }
                assertThat(accepted).as("frames accepted before refusing").isGreaterThan(0).isLessThan(10_000);
                assertThat(connection.send(frame(payload, 0))).as("still refused while stalled").isFalse();
                assertThat(maxSeenPending).isGreaterThanOrEqualTo(maxPending)
                        .isLessThanOrEqualTo(maxPending + payload + 4);
                assertThat(TimeUnit.NANOSECONDS.toMillis(slowestSendNanos)).as("send never blocks").isLessThan(500);
                Thread.sleep(200); // polls while stalled neither block nor drop the connection
                assertThat(connection.isConnected()).isTrue();
                assertThat(connection.pendingBytes()).isLessThanOrEqualTo(maxPending + payload + 4);
                assertThat(TimeUnit.NANOSECONDS.toMillis(harness.slowestPollNanos())).as("poll never blocks").isLessThan(500);

                // the collector reads again: every accepted frame arrives, in order, and sends resume
                for (int i = 0; i < accepted; i++) {
                    assertThat(readFrame(in)).as("frame " + i).isEqualTo(frame(payload, i));
                }
                await("pending written", () -> connection.pendingBytes() == 0);
                assertThat(connection.send(frame(5, 99))).isTrue();
                assertThat(readFrame(in)).isEqualTo(frame(5, 99));
                assertThat(log()).doesNotContain("unavailable");
            } finally {
                connection.close(1000);
            }
        }
    }

    @Test
    void closeWaitsBoundedForPendingBytes() throws Exception {
        int payload = 64 << 10;
        int port = freePort();
        try (ServerSocket server = listen(port)) {
            CollectorConnection connection = started(port, 1 << 20, 200);
            try (Socket agent = server.accept()) {
                final DataInputStream in = new DataInputStream(agent.getInputStream());
                byte[] first = new byte[HANDSHAKE.length];
                in.readFully(first);
                await("connected", connection::isConnected);
                int accepted = 0;
                // until the socket buffers and then ours are full
                while (accepted < 10_000 && connection.send(frame(payload, accepted))) {
                    accepted++;
                }
                harness.stopDriving(); // the exporter thread has stopped; close() alone must flush
                assertThat(connection.pendingBytes()).as("bytes the stalled collector has not taken").isPositive();

                // a collector that starts reading late: close flushes everything, then closes
                final List<byte[]> received = new ArrayList<>();
                final boolean[] endOfStream = new boolean[1];
                final int expected = accepted;
                Thread reader = new Thread(() -> {
                    try {
                        Thread.sleep(300);
                        for (int i = 0; i < expected; i++) {
                            received.add(readFrame(in));
                        }
                        endOfStream[0] = in.read() == -1;
                    } catch (Exception e) {
                        e.printStackTrace();
                    }
                }, "test-collector");
                long start = System.nanoTime();
                reader.start();
                connection.close(10_000);
                long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(connection.pendingBytes()).isZero();
                assertThat(connection.isConnected()).isFalse();
                assertThat(connection.send(frame(1, 1))).as("closed").isFalse();
                reader.join(10_000);
                assertThat(received).hasSize(expected);
                for (int i = 0; i < expected; i++) {
                    assertThat(received.get(i)).isEqualTo(frame(payload, i));
                }
                assertThat(endOfStream[0]).as("closed after the last frame").isTrue();
                assertThat(closeMillis).isGreaterThanOrEqualTo(250).isLessThan(10_000);
            }
        }
    }

    @Test
    void closeGivesUpAfterItsTimeoutWhenTheCollectorNeverReads() throws Exception {
        int port = freePort();
        try (ServerSocket server = listen(port)) {
            CollectorConnection connection = started(port, 1 << 20, 200);
            try (Socket agent = server.accept()) {
                await("connected", connection::isConnected);
                int accepted = 0;
                // until the socket buffers and then ours are full
                while (accepted < 10_000 && connection.send(frame(64 << 10, accepted))) {
                    accepted++;
                }
                assertThat(connection.pendingBytes()).isPositive();
                long start = System.nanoTime();
                connection.close(300);
                long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertThat(closeMillis).isBetween(250L, 3000L);
                assertThat(connection.isConnected()).isFalse();
                assertThat(connection.pendingBytes()).isZero();
                // the driver keeps polling: nothing reconnects after close
                server.setSoTimeout(500);
                assertThatThrownBy(server::accept).isInstanceOf(SocketTimeoutException.class);
                assertThat(log()).doesNotContain("unavailable").doesNotContain("reachable again");
            }
        }
    }

    @Test
    void connectTimesOutWithoutBlockingWhenTheCollectorNeverAnswers() throws Exception {
        int port = freePort();
        List<Socket> fillers = new ArrayList<>();
        try (ServerSocket server = listen(port)) {
            // nobody accepts and the backlog is full: the kernel drops further SYNs, the connect hangs
            for (int i = 0; i < 8; i++) {
                Socket filler = new Socket();
                fillers.add(filler);
                try {
                    filler.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 300);
                } catch (SocketTimeoutException full) {
                    break;
                }
            }
            CollectorConnection connection = started(port, 1 << 20, 200);
            try {
                await("connect timed out", () -> log().contains("connect timed out after 3000 ms"));
                assertThat(connection.isConnected()).isFalse();
                assertThat(connection.send(frame(1, 1))).isFalse();
                assertThat(TimeUnit.NANOSECONDS.toMillis(harness.slowestPollNanos())).as("poll never blocks").isLessThan(500);
            } finally {
                connection.close(1000);
                for (Socket filler : fillers) {
                    filler.close();
                }
            }
        }
    }

    @Test
    void unresolvableHostIsReportedAsDownAndRetried() throws Exception {
        final CollectorConnection connection = connection(
                Collections.singletonList(new CollectorAddress("collector.invalid", 9898)), 1 << 20, 200);
        try {
            connection.start();
            assertThat(log()).contains("collector collector.invalid:9898 unavailable (");
            assertThat(connection.isConnected()).isFalse();
            Thread.sleep(600);
            connection.poll(); // the next attempt fails the same way, quietly
            assertThat(connection.isConnected()).isFalse();
            assertThat(count(log(), " unavailable (")).isEqualTo(1);
        } finally {
            connection.close(100);
        }
    }
}
