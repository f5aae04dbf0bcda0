package io.argus.core.export;

import io.argus.protocol.Ack;
import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Frame;
import io.argus.protocol.HandshakeReply;
import io.argus.protocol.Span;

import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
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
 * current one ends), parses its frames and counts the handshakes and the spans it received. To an agent that asks
 * for them it answers the handshake and acknowledges each frame once parsed, unless built {@link #silent} (a
 * collector that predates acknowledgements).
 */
final class FakeCollector implements Closeable {

    private final boolean acking;
    private final ServerSocket server;
    private final Thread reader;
    /** Span counts of the span frames received, in order, over all connections. */
    private final List<Integer> spanFrames = new ArrayList<Integer>();
    /** Trace and span id of every span received, in order (a span sent twice is there twice). */
    private final List<String> spanIds = new ArrayList<String>();
    /** While set, frames are read but not acknowledged, as by a collector that has not handed them on yet. */
    private volatile boolean holdAcks;
    private final AtomicInteger handshakes = new AtomicInteger();
    private volatile Socket connection;

    /** Listens on {@code port}, or on a free one when 0. */
    FakeCollector(int port) throws IOException {
        this(port, true);
    }

    /** A collector that never writes back, as one that predates acknowledgements. */
    static FakeCollector silent(int port) throws IOException {
        return new FakeCollector(port, false);
    }

    private FakeCollector(int port, boolean acking) throws IOException {
        this.acking = acking;
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
                DataOutputStream out = new DataOutputStream(accepted.getOutputStream());
                boolean acks = false;
                long sequence = 0;
                while (true) {
                    byte[] body = new byte[in.readInt()];
                    in.readFully(body);
                    Frame frame = Frame.parseFrom(body);
                    if (frame.hasHandshake()) {
                        handshakes.incrementAndGet();
                        acks = acking && frame.getHandshake().getAcks();
                        if (acks) {
                            write(out, CollectorFrame.newBuilder()
                                    .setHandshakeReply(HandshakeReply.newBuilder().setAcks(true)).build());
                        }
                        continue;
                    }
                    if (frame.hasSpans()) {
                        synchronized (spanFrames) {
                            spanFrames.add(frame.getSpans().getSpansCount());
                            for (Span span : frame.getSpans().getSpansList()) {
                                spanIds.add(span.getTraceIdHigh() + "/" + span.getTraceIdLow() + "/" + span.getSpanId());
                            }
                        }
                    }
                    if (holdAcks) {
                        sequence++;
                    } else if (acks) {
                        write(out, CollectorFrame.newBuilder().setAck(Ack.newBuilder().setSequence(++sequence)).build());
                    }
                }
            } catch (IOException end) {
                // the agent or the test closed the connection, or the server: accept the next one
            } finally {
                connection = null;
            }
        }
    }

    private static void write(DataOutputStream out, CollectorFrame frame) throws IOException {
        byte[] bytes = frame.toByteArray();
        out.writeInt(bytes.length);
        out.write(bytes);
        out.flush();
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

    List<String> spanIds() {
        synchronized (spanFrames) {
            return new ArrayList<String>(spanIds);
        }
    }

    /** From now on frames are read but not acknowledged. */
    void holdAcks() {
        holdAcks = true;
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
