package io.argus.collector.testing;

import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Frame;
import io.argus.protocol.SpanBatch;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A test agent that behaves like the real one towards acknowledgements: it asks for them, keeps every span frame
 * until acknowledged, and when the collector closes the connection (or refuses a new one) it reconnects after a
 * back-off and writes what was not acknowledged again, oldest first, before anything new. It records every
 * acknowledged batch, the connections the collector closed and the refusals it wrote. One thread does all the
 * socket work.
 */
public final class ResendingAgent implements AutoCloseable {
    private final int port;
    private final String service;
    private final String instance;
    private final int maxUnacked;
    private final ConcurrentLinkedQueue<SpanBatch> offered = new ConcurrentLinkedQueue<>();
    /** Written (or to be written again) and not acknowledged, oldest first; agent thread only. */
    private final ArrayDeque<SpanBatch> unacked = new ArrayDeque<>();
    private final List<SpanBatch> acked = Collections.synchronizedList(new ArrayList<>());
    private final List<CollectorFrame> refusals = Collections.synchronizedList(new ArrayList<>());
    private final Thread thread;
    private volatile boolean running = true;
    private volatile int connects;
    private volatile int closedByCollector;
    private volatile boolean connected;

    public ResendingAgent(int port, String service, String instance, int maxUnacked) {
        this.port = port;
        this.service = service;
        this.instance = instance;
        this.maxUnacked = maxUnacked;
        this.thread = new Thread(this::run, "resending-agent-" + instance);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** Queues a batch; the agent writes it when connected and below its bound of unacknowledged frames. */
    public void offer(SpanBatch batch) {
        offered.add(batch);
    }

    /** Every batch acknowledged so far. */
    public List<SpanBatch> acked() {
        synchronized (acked) {
            return new ArrayList<>(acked);
        }
    }

    /** Batches offered and not yet acknowledged (queued, written, or to be written again). */
    public int outstanding() {
        return offered.size() + unackedCount;
    }

    private volatile int unackedCount;

    /** Collector frames that refused a connection ({@code CollectorFrame} bodies other than replies and acks). */
    public List<CollectorFrame> refusals() {
        synchronized (refusals) {
            return new ArrayList<>(refusals);
        }
    }

    /** Connections opened (handshake written). */
    public int connects() {
        return connects;
    }

    /** Connections the collector closed, or refused before its answer to the handshake. */
    public int closedByCollector() {
        return closedByCollector;
    }

    public boolean connected() {
        return connected;
    }

    /** Waits until everything offered is acknowledged. */
    public boolean awaitAllAcked(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (outstanding() > 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    private void run() {
        long backoff = 100;
        while (running) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
                socket.setTcpNoDelay(true);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                DataInputStream in = new DataInputStream(socket.getInputStream());
                connects++;
                write(out, Frame.newBuilder().setHandshake(TestAgent.handshake(service, instance).toBuilder()
                        .setAcks(true)).build());
                socket.setSoTimeout(10_000);
                CollectorFrame reply = read(in);
                if (!reply.hasHandshakeReply()) {
                    refusals.add(reply);
                    throw new EOFException("refused: " + reply);
                }
                connected = true;
                backoff = 100;
                session(socket, in, out);
            } catch (IOException e) {
                if (running) {
                    closedByCollector++;
                }
            } finally {
                connected = false;
            }
            sleep(backoff);
            backoff = Math.min(1_000, backoff * 2);
        }
    }

    /** Writes the unacknowledged frames again, then new ones, reading acknowledgements in between. */
    private void session(Socket socket, DataInputStream in, DataOutputStream out) throws IOException {
        List<SpanBatch> written = new ArrayList<>(); // index + 1 = sequence on this connection
        for (SpanBatch b : unacked) {
            write(out, Frame.newBuilder().setSpans(b).build());
            written.add(b);
        }
        long acknowledged = 0;
        while (running) {
            SpanBatch next;
            while (unacked.size() < maxUnacked && (next = offered.poll()) != null) {
                unacked.addLast(next);
                unackedCount = unacked.size();
                write(out, Frame.newBuilder().setSpans(next).build());
                written.add(next);
            }
            int first;
            try {
                socket.setSoTimeout(20);
                first = in.read();
            } catch (SocketTimeoutException nothingYet) {
                continue;
            }
            if (first < 0) {
                throw new EOFException("closed by the collector");
            }
            socket.setSoTimeout(5_000);
            CollectorFrame f = readAfter(first, in);
            if (f.hasAck()) {
                long upTo = f.getAck().getSequence();
                for (long s = acknowledged + 1; s <= upTo; s++) {
                    acked.add(unacked.removeFirst());
                }
                unackedCount = unacked.size();
                acknowledged = upTo;
            } else if (!f.hasHandshakeReply()) {
                refusals.add(f);
            }
        }
    }

    private static void write(DataOutputStream out, Frame frame) throws IOException {
        byte[] body = frame.toByteArray();
        out.writeInt(body.length);
        out.write(body);
        out.flush();
    }

    /** The rest of a frame whose first length byte was read already. */
    private static CollectorFrame readAfter(int first, DataInputStream in) throws IOException {
        int length = first << 24 | in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
        byte[] body = new byte[length];
        in.readFully(body);
        return CollectorFrame.parseFrom(body);
    }

    private static CollectorFrame read(DataInputStream in) throws IOException {
        int length = in.readInt();
        byte[] body = new byte[length];
        in.readFully(body);
        return CollectorFrame.parseFrom(body);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5_000);
    }
}
