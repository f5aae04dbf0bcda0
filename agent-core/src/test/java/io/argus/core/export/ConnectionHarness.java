package io.argus.core.export;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the collector connection tests share: the agent log captured from {@code System.err}, a thread that polls
 * the connection every 10 ms as the exporter's idle loop does (measuring the slowest poll), and the scripted
 * collector's socket helpers.
 */
final class ConnectionHarness {

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private PrintStream originalErr;
    private Thread driver;
    private volatile boolean driving;
    private volatile long slowestPollNanos;

    /** From a {@code @BeforeEach}. */
    void captureAgentLog() {
        originalErr = System.err;
        final PrintStream original = originalErr;
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (log) {
                    log.write(b);
                }
                original.write(b);
            }
        }, true));
    }

    /** From an {@code @AfterEach}. */
    void stop() throws InterruptedException {
        stopDriving();
        System.setErr(originalErr);
    }

    /** Starts the connection and polls it every 10 ms until {@link #stopDriving}. */
    CollectorConnection drive(final CollectorConnection connection) {
        connection.start();
        driving = true;
        driver = new Thread(() -> {
            while (driving) {
                long start = System.nanoTime();
                connection.poll();
                slowestPollNanos = Math.max(slowestPollNanos, System.nanoTime() - start);
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "test-exporter");
        driver.setDaemon(true);
        driver.start();
        return connection;
    }

    /** The exporter thread stops: from here on only the test calls the connection. */
    void stopDriving() throws InterruptedException {
        driving = false;
        if (driver != null) {
            driver.join(5000);
        }
    }

    long slowestPollNanos() {
        return slowestPollNanos;
    }

    String log() {
        synchronized (log) {
            return new String(log.toByteArray(), StandardCharsets.UTF_8);
        }
    }

    static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /** A collector's listening socket on {@code port} (0: any), accepting within 10 s. */
    static ServerSocket listen(int port) throws IOException {
        ServerSocket server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
        server.setSoTimeout(10_000);
        return server;
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.getAsBoolean()) {
            assertThat(System.currentTimeMillis()).as(what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** {@code body} behind its 4-byte length prefix, as frames travel both ways. */
    static byte[] withLength(byte[] body) {
        return java.nio.ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    /** Writes a collector frame to the agent, as the collector does. */
    static void write(java.net.Socket agent, io.argus.protocol.CollectorFrame frame) throws IOException {
        OutputStream out = agent.getOutputStream();
        out.write(withLength(frame.toByteArray()));
        out.flush();
    }

    /** One frame as the agent wrote it, length prefix included. */
    static byte[] readFrame(DataInputStream in) throws IOException {
        int length = in.readInt();
        byte[] frame = new byte[4 + length];
        frame[0] = (byte) (length >>> 24);
        frame[1] = (byte) (length >>> 16);
        frame[2] = (byte) (length >>> 8);
        frame[3] = (byte) length;
        in.readFully(frame, 4, length);
        return frame;
    }
}
