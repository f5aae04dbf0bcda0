package io.argus.core.export;

import io.argus.core.AgentLog;
import io.argus.core.config.CollectorAddress;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * One TCP connection to the collector over a non-blocking NIO socket, plain or TLS, driven by the exporter
 * thread: {@link #poll} advances a pending connect, writes what is waiting, discards inbound bytes
 * and reconnects with exponential backoff. While the connection is down, or while more than
 * {@code maxPendingBytes} are waiting to be written, {@link #send} refuses and the caller counts a
 * drop, so a dead or slow collector never holds memory or threads. No call ever blocks on the
 * network (only the host name look-up of a connect attempt can, as with any resolver).
 *
 * <p>With several collector addresses, each failure (a refused or timed-out connect, an unresolvable name, a
 * closed connection) moves on to the next address in the list, cyclically, after the same backoff: a new
 * connection always starts with the handshake, and what was pending for the dead socket is dropped with it.
 *
 * <p>With TLS ({@code argus.collector.tls}) the connection goes through a handshake after the TCP connect (at
 * most {@value #HANDSHAKE_TIMEOUT_MILLIS} ms) before the agent's handshake frame; a handshake the collector
 * rejects, or whose certificate the agent does not trust, counts as a failed connect: logged once, with the
 * reason, and retried with the backoff.
 *
 * <p>Not Netty: the collector connection alone loaded some 400 Netty classes at every application
 * start, for one client socket. The methods that touch the socket are synchronized: the exporter
 * thread is the only caller in normal operation, the shutdown hook may take over at exit.
 */
final class CollectorConnection {

    private static final long MIN_BACKOFF_MILLIS = 500;
    private static final long CONNECT_TIMEOUT_MILLIS = 3000;
    static final long HANDSHAKE_TIMEOUT_MILLIS = 10_000;

    private enum State { DOWN, CONNECTING, HANDSHAKING, CONNECTED, CLOSED }

    /** Tried in order, one after the other on each failure; never empty. */
    private final CollectorAddress[] addresses;
    /** Per address: whether its failure was logged during the current outage (one WARN line each). */
    private final boolean[] reportedDown;
    /** Index into {@link #addresses} of the collector connected, being connected or tried next. */
    private int current;
    private final byte[] handshake;
    private final int maxPendingBytes;
    private final long maxBackoffMillis;
    /** Frames (or their unwritten rest) waiting for room in the socket's send buffer, oldest first. */
    private final ArrayDeque<ByteBuffer> pending = new ArrayDeque<ByteBuffer>();
    /** TLS to the collector, or null for plain TCP. */
    private final SSLContext tls;
    private final boolean verifyHostname;
    private volatile State state = State.DOWN;
    private SocketChannel channel;
    /** The connected socket's byte stream; null until the TCP connect completes. */
    private CollectorTransport transport;
    private long pendingBytes;
    private long connectDeadlineMillis;
    private long nextAttemptMillis;
    private long backoffMillis = MIN_BACKOFF_MILLIS;

    CollectorConnection(String host, int port, byte[] handshake, int maxPendingBytes, long maxBackoffMillis) {
        this(Collections.singletonList(new CollectorAddress(host, port)), handshake, maxPendingBytes,
                maxBackoffMillis);
    }

    CollectorConnection(List<CollectorAddress> addresses, byte[] handshake, int maxPendingBytes,
                        long maxBackoffMillis) {
        this(addresses, handshake, maxPendingBytes, maxBackoffMillis, null, false);
    }

    /** @param tls TLS to every collector in the list, or null for plain TCP */
    CollectorConnection(List<CollectorAddress> addresses, byte[] handshake, int maxPendingBytes,
                        long maxBackoffMillis, SSLContext tls, boolean verifyHostname) {
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("no collector address");
        }
        this.addresses = addresses.toArray(new CollectorAddress[0]);
        this.reportedDown = new boolean[this.addresses.length];
        this.handshake = handshake;
        this.maxPendingBytes = maxPendingBytes;
        this.maxBackoffMillis = maxBackoffMillis;
        this.tls = tls;
        this.verifyHostname = verifyHostname;
    }

    /** Starts the first connect attempt; {@link #poll} completes it. */
    synchronized void start() {
        if (state == State.DOWN) {
            connect(System.currentTimeMillis());
        }
    }

    /**
     * Called by the exporter thread on every loop iteration (at the latest when {@link #pollState} says so): finishes or times out a connect, starts
     * the next attempt once the backoff has passed, writes pending bytes and reads (and drops)
     * whatever the collector sent. Never blocks on the network.
     */
    synchronized void poll() {
        State current = state;
        if (current == State.CONNECTED) {
            if (flush()) {
                discardInbound();
            }
        } else if (current == State.CONNECTING) {
            finishConnect();
        } else if (current == State.HANDSHAKING) {
            advanceHandshake();
        } else if (current == State.DOWN) {
            long now = System.currentTimeMillis();
            if (now >= nextAttemptMillis) {
                connect(now);
            }
        }
    }

    private void connect(long now) {
        CollectorAddress address = addresses[current];
        AgentLog.debug("connecting to collector " + address);
        SocketChannel opened = null;
        try {
            opened = SocketChannel.open();
            opened.configureBlocking(false);
            opened.setOption(StandardSocketOptions.TCP_NODELAY, true);
            opened.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            channel = opened;
            connectDeadlineMillis = now + CONNECT_TIMEOUT_MILLIS;
            state = State.CONNECTING;
            if (opened.connect(new InetSocketAddress(address.host, address.port))) {
                onTcpConnected();
            }
        } catch (Exception e) {
            // IOException, or an unresolved host name (UnresolvedAddressException)
            if (opened != null && channel != opened) {
                closeQuietly(opened);
            }
            onDown(e.toString());
        }
    }

    private void finishConnect() {
        try {
            if (channel.finishConnect()) {
                onTcpConnected();
            } else if (System.currentTimeMillis() >= connectDeadlineMillis) {
                onDown("connect timed out after " + CONNECT_TIMEOUT_MILLIS + " ms");
            }
        } catch (IOException e) {
            onDown(e.toString());
        }
    }

    private void onTcpConnected() {
        if (tls == null) {
            transport = new PlainTransport(channel);
            onConnected();
            return;
        }
        CollectorAddress address = addresses[current];
        try {
            transport = new TlsTransport(channel, tls, address.host, address.port, verifyHostname);
        } catch (SSLException e) {
            onDown("cannot start TLS: " + e.getMessage());
            return;
        }
        state = State.HANDSHAKING;
        connectDeadlineMillis = System.currentTimeMillis() + HANDSHAKE_TIMEOUT_MILLIS;
        advanceHandshake();
    }

    private void advanceHandshake() {
        try {
            if (transport.handshake()) {
                AgentLog.debug("TLS session with collector " + addresses[current] + " established");
                onConnected();
            } else if (System.currentTimeMillis() >= connectDeadlineMillis) {
                onDown("no TLS handshake within " + HANDSHAKE_TIMEOUT_MILLIS
                        + " ms: is the collector's ingest port serving TLS?");
            }
        } catch (IOException e) {
            onDown(TlsFailures.describe(e));
        }
    }

    private void onConnected() {
        state = State.CONNECTED;
        backoffMillis = MIN_BACKOFF_MILLIS;
        boolean wasDown = false;
        for (int i = 0; i < reportedDown.length; i++) {
            wasDown |= reportedDown[i];
            reportedDown[i] = false;
        }
        if (wasDown) {
            AgentLog.info(addresses.length == 1 ? "collector " + addresses[current] + " reachable again"
                    : "sending to collector " + addresses[current]);
        }
        // nothing can be queued before the handshake: send() refuses until this point
        enqueue(ByteBuffer.wrap(handshake));
        flush();
    }

    /**
     * Closes the socket, drops what was waiting for it and schedules the next attempt, at the next address
     * when there are several.
     */
    private void onDown(String reason) {
        if (transport != null) {
            transport.close();
            transport = null;
        } else if (channel != null) {
            closeQuietly(channel);
        }
        channel = null;
        pending.clear();
        pendingBytes = 0;
        if (state == State.CLOSED) {
            return;
        }
        state = State.DOWN;
        int failed = current;
        current = (current + 1) % addresses.length;
        if (!reportedDown[failed]) {
            AgentLog.warn("collector " + addresses[failed] + " unavailable (" + reason + "); "
                    + (addresses.length == 1 ? "dropping data and retrying with backoff"
                    : "trying " + addresses[current]));
            reportedDown[failed] = true;
        }
        long delay = backoffMillis;
        AgentLog.debug("collector " + addresses[failed] + " down (" + reason + "); next attempt at "
                + addresses[current] + " in " + delay + " ms");
        backoffMillis = Math.min(maxBackoffMillis, backoffMillis * 2);
        nextAttemptMillis = System.currentTimeMillis() + delay;
    }

    /** Connected, or a connect in progress: not down and not closed. */
    synchronized boolean upOrConnecting() {
        return state == State.CONNECTED || state == State.CONNECTING || state == State.HANDSHAKING;
    }

    /** Whether {@link #send} would take a frame now: connected, and the pending bytes below their limit. */
    synchronized boolean hasRoom() {
        return state == State.CONNECTED && pendingBytes < maxPendingBytes;
    }

    /** Queues one frame for writing; false when it cannot be written now (the caller drops it). */
    synchronized boolean send(byte[] frame) {
        if (state != State.CONNECTED || pendingBytes >= maxPendingBytes) {
            return false;
        }
        enqueue(ByteBuffer.wrap(frame));
        flush();
        return true;
    }

    private void enqueue(ByteBuffer frame) {
        pending.addLast(frame);
        pendingBytes += frame.remaining();
    }

    /** Writes as much as the socket takes without blocking; false when the connection went down. */
    private boolean flush() {
        try {
            if (!transport.flush()) {
                return true; // TLS records still wait for room in the socket
            }
            ByteBuffer head;
            while ((head = pending.peekFirst()) != null) {
                int written = transport.write(head);
                pendingBytes -= written;
                if (head.hasRemaining()) {
                    return true; // the socket's send buffer is full: try again on the next poll
                }
                pending.removeFirst();
            }
            return true;
        } catch (IOException e) {
            onDown(e.toString());
            return false;
        }
    }

    /** The collector never answers; anything it sends is read and dropped, end of stream means down. */
    private void discardInbound() {
        try {
            if (!transport.discardInbound()) {
                onDown("connection closed");
            }
        } catch (IOException e) {
            onDown(e.toString());
        }
    }

    /** What {@link #poll} has to do next, for the exporter to choose how long it may sleep. */
    enum PollState { IDLE, WRITING, CONNECTING, HANDSHAKING, WAITING_TO_RECONNECT }

    synchronized PollState pollState() {
        switch (state) {
            case CONNECTING:
                return PollState.CONNECTING;
            case HANDSHAKING:
                return PollState.HANDSHAKING;
            case DOWN:
                return PollState.WAITING_TO_RECONNECT;
            case CONNECTED:
                return pendingBytes > 0 || transport.hasUnsentBytes() ? PollState.WRITING : PollState.IDLE;
            default:
                return PollState.IDLE;
        }
    }

    /** Milliseconds until the next connect attempt while down; 0 when it is due. */
    synchronized long millisToNextAttempt() {
        return Math.max(0, nextAttemptMillis - System.currentTimeMillis());
    }

    /** The collector connected, being connected or tried next. */
    synchronized CollectorAddress currentAddress() {
        return addresses[current];
    }

    boolean isConnected() {
        return state == State.CONNECTED;
    }

    /** Bytes accepted by {@link #send} (and the handshake) that the socket has not taken yet. */
    synchronized long pendingBytes() {
        return pendingBytes;
    }

    /** Waits (bounded) until accepted frames have been handed to the socket, then closes. */
    synchronized void close(long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        boolean connected = state == State.CONNECTED;
        state = State.CLOSED; // from here on a failure is not reported and nothing reconnects
        if (connected) {
            while (flush() && (!pending.isEmpty() || transport.hasUnsentBytes())
                    && System.currentTimeMillis() < deadline) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        onDown("closed");
    }

    static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
