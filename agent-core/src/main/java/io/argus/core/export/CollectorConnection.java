package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.AgentLog;
import io.argus.core.config.CollectorAddress;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

/**
 * One TCP connection to the collector over a non-blocking NIO socket, plain or TLS, driven by the exporter
 * thread: {@link #poll} advances a pending connect, writes what is waiting, reads the collector's replies and
 * reconnects with exponential backoff. While the connection is down, or while more than
 * {@code maxPendingBytes} are waiting to be written (span frames kept for acknowledgement: more than
 * {@code maxUnackedBytes} kept), {@link #send} refuses and the caller counts a drop, so a dead or slow collector
 * never holds unbounded memory or any thread. No call ever blocks on the network (only the host name look-up of a
 * connect attempt can, as with any resolver).
 *
 * <p>With several collector addresses, each failure (a refused or timed-out connect, an unresolvable name, a
 * closed connection) moves on to the next address in the list, cyclically, after the same backoff: a new
 * connection always starts with the handshake.
 *
 * <p>Acknowledgements: the handshake asks for them; a collector that supports them answers it, then acknowledges
 * frames once it has handed their content on. Span frames are kept ({@link OutboundFrames}, at most
 * {@code maxUnackedBytes}) until acknowledged and count as sent only then; what was kept when a connection is lost
 * is written again, first, on the next one. A collector that has not answered the handshake within
 * {@code replyTimeoutMillis} (or before the kept frames reach their bound) is taken for one that predates
 * acknowledgements: what was kept counts as sent, and the connection goes on one-way, as before; what is in flight
 * to it when it fails is lost with the socket.
 *
 * <p>A connection counts as up (the backoff starts over, "reachable again" is logged) once the collector accepts the
 * handshake: it answered it, or, from a collector that predates acknowledgements, the answer's time-out passed
 * without the connection closing. A collector that closes the connection right after the handshake (a wrong token, a
 * full disk) is an outage like any other: the backoff keeps growing. When it says why ({@code Refusal}), the agent
 * logs that once per address and cause, as an ERROR naming the setting to fix when the agent's configuration is at
 * fault (the token, the service name), and goes on retrying with the backoff.
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
    /** How long a collector may take to answer the handshake before it is taken for one without acks. */
    static final long REPLY_TIMEOUT_MILLIS = 5_000;

    private enum State { DOWN, CONNECTING, HANDSHAKING, CONNECTED, CLOSED }

    /** Acknowledgements on the current connection: not asked for or not offered, no answer yet, or on. */
    private enum Acks { OFF, AWAITING_REPLY, ON }

    /** Tried in order, one after the other on each failure; never empty. */
    private final CollectorAddress[] addresses;
    /** Per address: whether its failure was logged during the current outage (one WARN line each). */
    private final boolean[] reportedDown;
    /** Per address: whether it was logged as not acknowledging (once per address). */
    private final boolean[] reportedNoAcks;
    /** Per address: the refusal reason last logged during the current outage (0: none), so each is logged once. */
    private final int[] reportedRefusal;
    /** A refusal read from the collector, acted on once the bytes read with it are decoded; null when none. */
    private String refusal;
    /** Index into {@link #addresses} of the collector connected, being connected or tried next. */
    private int current;
    private final byte[] handshake;
    /** Whether {@link #handshake} asks for acknowledgements. */
    private final boolean acksWanted;
    private final int maxPendingBytes;
    private final long replyTimeoutMillis;
    private final long maxBackoffMillis;
    /** Frames waiting for room in the socket's send buffer, and span frames waiting for their ack. */
    private final OutboundFrames frames;
    private final ReplyReader replies = new ReplyReader();
    private final ReplyReader.Handler replyHandler = new ReplyReader.Handler() {
        @Override
        public void handshakeReply(boolean acks) {
            onHandshakeReply(acks);
        }

        @Override
        public void acknowledged(long sequence) {
            onAck(sequence);
        }

        @Override
        public void refused(int reason, String message) {
            onRefused(reason, message);
        }
    };
    /** TLS to the collector, or null for plain TCP. */
    private final SSLContext tls;
    private final boolean verifyHostname;
    private volatile State state = State.DOWN;
    private SocketChannel channel;
    /** The connected socket's byte stream; null until the TCP connect completes. */
    private CollectorTransport transport;
    private Acks acks = Acks.OFF;
    private long replyDeadlineMillis;
    private long connectDeadlineMillis;
    private long nextAttemptMillis;
    private long backoffMillis = MIN_BACKOFF_MILLIS;

    CollectorConnection(ConnectionSettings settings) {
        this.addresses = settings.addresses.toArray(new CollectorAddress[0]);
        this.reportedDown = new boolean[this.addresses.length];
        this.reportedNoAcks = new boolean[this.addresses.length];
        this.reportedRefusal = new int[this.addresses.length];
        this.handshake = settings.handshake;
        this.acksWanted = settings.acksWanted;
        this.frames = new OutboundFrames(settings.counters, settings.maxUnackedBytes);
        this.maxPendingBytes = settings.maxPendingBytes;
        this.replyTimeoutMillis = settings.replyTimeoutMillis;
        this.maxBackoffMillis = settings.maxBackoffMillis;
        this.tls = settings.tls;
        this.verifyHostname = settings.verifyHostname;
    }

    /** Starts the first connect attempt; {@link #poll} completes it. */
    synchronized void start() {
        if (state == State.DOWN) {
            connect(System.currentTimeMillis());
        }
    }

    /**
     * Called by the exporter thread on every loop iteration (at the latest when {@link #pollState} says so): finishes
     * or times out a connect, starts the next attempt once the backoff has passed, writes pending bytes and reads
     * the collector's replies. Never blocks on the network.
     */
    synchronized void poll() {
        State current = state;
        if (current == State.CONNECTED) {
            exchange();
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
        // nothing new can be queued before the handshake (send() refuses until this point); what was kept for
        // a lost connection follows it
        frames.connected(handshake);
        replies.clear();
        refusal = null;
        acks = acksWanted ? Acks.AWAITING_REPLY : Acks.OFF;
        replyDeadlineMillis = System.currentTimeMillis() + replyTimeoutMillis;
        if (!acksWanted) {
            accepted(); // nothing will say otherwise
        }
        flush();
    }

    /**
     * The collector took the handshake (it answered it, or the answer's time-out passed with the connection open):
     * the outage is over, the backoff starts over.
     */
    private void accepted() {
        backoffMillis = MIN_BACKOFF_MILLIS;
        boolean wasDown = false;
        for (int i = 0; i < reportedDown.length; i++) {
            wasDown |= reportedDown[i];
            reportedDown[i] = false;
            reportedRefusal[i] = 0;
        }
        if (wasDown) {
            AgentLog.info(addresses.length == 1 ? "collector " + addresses[current] + " reachable again"
                    : "sending to collector " + addresses[current]);
        }
    }

    /** Writes what the socket takes, reads the replies, and gives up waiting for the handshake's answer in time. */
    private boolean exchange() {
        if (!flush() || !readReplies()) {
            return false;
        }
        if (acks == Acks.AWAITING_REPLY && System.currentTimeMillis() >= replyDeadlineMillis) {
            noAcks("no answer to the handshake within " + replyTimeoutMillis + " ms");
        }
        return true;
    }

    private void onHandshakeReply(boolean offered) {
        if (!acksWanted) {
            return;
        }
        if (acks == Acks.AWAITING_REPLY) {
            accepted();
        }
        if (offered) {
            // also after giving up on the answer: frames from now on are kept
            acks = Acks.ON;
        } else if (acks == Acks.AWAITING_REPLY) {
            noAcks("the collector does not offer them");
        }
    }

    private void onAck(long sequence) {
        if (sequence > frames.written()) {
            throw new IllegalStateException("the collector acknowledged frame " + sequence + " of "
                    + frames.written() + " written");
        }
        frames.acknowledged(sequence);
    }

    /**
     * The collector says why it closes the connection: logged once per address and reason during an outage, as an
     * ERROR naming the setting when this agent's configuration is at fault; the connection then goes down as for any
     * outage (see {@link #readReplies}).
     */
    private void onRefused(int reason, String message) {
        CollectorAddress address = addresses[current];
        String why;
        switch (reason) {
            case WireFields.REFUSAL_BAD_TOKEN:
                why = "collector " + address + " refused this agent's token (" + message + "): set"
                        + " argus.collector.token to the collector's --token; retrying with backoff";
                break;
            case WireFields.REFUSAL_UNSUPPORTED_PROTOCOL_VERSION:
                why = "collector " + address + " does not speak this agent's protocol (" + message + "): upgrade the"
                        + " collector; retrying with backoff";
                break;
            case WireFields.REFUSAL_BAD_HANDSHAKE:
                why = "collector " + address + " refused this agent's handshake (" + message + "): check"
                        + " argus.service.name and argus.service.instance; retrying with backoff";
                break;
            default:
                why = null;
                break;
        }
        if (reportedRefusal[current] != reason) {
            reportedRefusal[current] = reason;
            reportedDown[current] = true; // this line says it all: no second one for the closed connection
            if (why != null) {
                AgentLog.error(why);
            } else {
                AgentLog.warn("collector " + address + " closed the connection: " + message + "; "
                        + (reason == WireFields.REFUSAL_UNAVAILABLE ? "what it did not acknowledge is sent again"
                        + (addresses.length > 1 ? " to the next collector" : " when it accepts again")
                        : "retrying with backoff"));
            }
        }
        refusal = "refused: " + message;
    }

    /** The collector will not acknowledge: what was kept counts as sent, and the connection goes on one-way. */
    private void noAcks(String reason) {
        if (acks == Acks.AWAITING_REPLY) {
            accepted(); // no answer, but no refusal either: an older collector took the handshake
        }
        acks = Acks.OFF;
        frames.stopKeeping();
        if (!reportedNoAcks[current]) {
            reportedNoAcks[current] = true;
            AgentLog.info("collector " + addresses[current] + " does not acknowledge frames (" + reason
                    + "): sending without acknowledgements; spans in flight when its connection fails are lost");
        }
    }

    /**
     * Closes the socket, keeps the span frames kept for a resend (and drops the rest of what was waiting for the
     * socket) and schedules the next attempt, at the next address when there are several.
     */
    private void onDown(String reason) {
        if (transport != null) {
            transport.close();
            transport = null;
        } else if (channel != null) {
            closeQuietly(channel);
        }
        channel = null;
        frames.lost();
        acks = Acks.OFF;
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

    /** Whether {@link #sendSpans} would take a frame now: connected, and below the bound that applies to it. */
    synchronized boolean hasRoom() {
        return state == State.CONNECTED && (acks == Acks.OFF ? frames.pendingBytes() < maxPendingBytes
                : acks == Acks.AWAITING_REPLY || !frames.keptFull());
    }

    /** Queues a metric or heartbeat frame for writing; false when it cannot be written now (the caller drops it). */
    synchronized boolean send(byte[] frame) {
        if (state != State.CONNECTED || frames.pendingBytes() >= maxPendingBytes) {
            return false;
        }
        frames.add(frame, 0, false);
        flush();
        return true;
    }

    /**
     * Queues a span frame; false when it cannot be written now, or cannot be kept until acknowledged (the caller
     * counts its spans as dropped). Once taken, its spans count as sent when the collector acknowledges the frame
     * (or at once, from a collector that does not acknowledge).
     */
    synchronized boolean sendSpans(byte[] frame, int spans) {
        if (state != State.CONNECTED) {
            return false;
        }
        boolean keep = acks != Acks.OFF;
        if (keep && !frames.canKeep(frame.length)) {
            if (acks == Acks.ON) {
                return false; // the collector is that far behind with writing or acknowledging
            }
            // no answer to the handshake while the bound filled up: an older collector
            noAcks("no answer to the handshake after " + frames.keptBytes() + " bytes");
            keep = false;
        }
        // a kept frame is bounded with the kept ones, written or not: what a lost connection left to write again
        // does not crowd out new frames
        if (!keep && frames.pendingBytes() >= maxPendingBytes) {
            return false;
        }
        frames.add(frame, spans, keep);
        flush();
        return true;
    }

    /** Writes as much as the socket takes without blocking; false when the connection went down. */
    private boolean flush() {
        try {
            if (!transport.flush()) {
                return true; // TLS records still wait for room in the socket
            }
            ByteBuffer head;
            while ((head = frames.head()) != null) {
                frames.wrote(transport.write(head));
                if (head.hasRemaining()) {
                    return true; // the socket's send buffer is full: try again on the next poll
                }
            }
            return true;
        } catch (IOException e) {
            onDown(e.toString());
            return false;
        }
    }

    /**
     * Reads and acts on what the collector wrote: the answer to the handshake and acknowledgements (dropped unread
     * when none were asked for); false when the connection went down (end of stream, or bytes that are no reply).
     */
    private boolean readReplies() {
        try {
            while (true) {
                int read = transport.read(replies.buffer());
                if (read < 0) {
                    onDown("connection closed");
                    return false;
                }
                if (acksWanted) {
                    replies.decode(replyHandler);
                    if (refusal != null) {
                        onDown(refusal);
                        return false;
                    }
                } else {
                    replies.clear();
                }
                if (read == 0) {
                    return true;
                }
            }
        } catch (IOException | IllegalStateException e) {
            onDown(e.toString());
            return false;
        }
    }

    /** What {@link #poll} has to do next, for the exporter to choose how long it may sleep. */
    enum PollState { IDLE, WRITING, AWAITING_ACKS, CONNECTING, HANDSHAKING, WAITING_TO_RECONNECT }

    synchronized PollState pollState() {
        switch (state) {
            case CONNECTING:
                return PollState.CONNECTING;
            case HANDSHAKING:
                return PollState.HANDSHAKING;
            case DOWN:
                return PollState.WAITING_TO_RECONNECT;
            case CONNECTED:
                if (frames.hasPending() || transport.hasUnsentBytes()) {
                    return PollState.WRITING;
                }
                return acks == Acks.AWAITING_REPLY || acks == Acks.ON && frames.hasUnacked() ? PollState.AWAITING_ACKS
                        : PollState.IDLE;
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

    /** Bytes of frames not kept for acknowledgement (and the handshake) that the socket has not taken yet. */
    synchronized long pendingBytes() {
        return frames.pendingBytes();
    }

    /** Bytes of the span frames kept until acknowledged. */
    synchronized long keptBytes() {
        return frames.keptBytes();
    }

    /** Whether the collector of the current connection acknowledges frames (it answered the handshake). */
    synchronized boolean acknowledging() {
        return acks == Acks.ON;
    }

    /**
     * Waits (bounded) until accepted frames have been handed to the socket and the kept ones acknowledged (or the
     * collector was found not to acknowledge), then closes. The spans of kept frames still not acknowledged then
     * count as dropped.
     */
    synchronized void close(long timeoutMillis) {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        boolean connected = state == State.CONNECTED;
        state = State.CLOSED; // from here on a failure is not reported and nothing reconnects
        if (connected) {
            while (exchange() && (frames.hasPending() || transport.hasUnsentBytes()
                    || acks != Acks.OFF && frames.keptBytes() > 0)
                    && System.currentTimeMillis() < deadline) {
                LockSupport.parkNanos(1_000_000L);
            }
        }
        onDown("closed");
        frames.dropAll();
    }

    static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
