package io.argus.core.export;

import io.argus.core.AgentCounters;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/**
 * The frames of the collector connection on their way out, and the span accounting that goes with them.
 *
 * <p>Frames wait in order for room in the socket ({@link #pending}). On a connection whose collector acknowledges,
 * a span frame is also <em>kept</em> from the moment it is accepted until the collector acknowledges it; kept frames
 * are bounded in bytes ({@code argus.exporter.maxUnackedBytes}). When the connection is lost the kept frames go back,
 * in their order, to be written first on the next connection, and their spans count as sent only once acknowledged.
 * Metric and heartbeat frames are never kept: a metric batch stored twice would count its calls twice, so it stays
 * at most once, as before acknowledgements.
 *
 * <p>Without acknowledgements (an older collector) nothing is kept and a span frame counts as sent when accepted,
 * as it always did. Exporter thread only (and the shutdown hook once that thread has stopped).
 */
final class OutboundFrames {

    /** One frame and its writing progress. */
    static final class Frame {
        /** The frame's bytes; the position is the next byte to write. */
        final ByteBuffer bytes;
        /** Spans in the frame; 0 for other frames. */
        final int spans;
        /** False for the handshake, which the collector does not number. */
        final boolean numbered;
        boolean kept;
        /** Written in full to an earlier connection, which was lost before the collector acknowledged it. */
        boolean writtenBefore;
        long sequence;

        Frame(byte[] bytes, int spans, boolean numbered, boolean kept) {
            this.bytes = ByteBuffer.wrap(bytes);
            this.spans = spans;
            this.numbered = numbered;
            this.kept = kept;
        }

        int size() {
            return bytes.capacity();
        }
    }

    private final AgentCounters counters;
    private final long maxKeptBytes;
    /** Accepted and not yet written in full, oldest first. */
    private final ArrayDeque<Frame> pending = new ArrayDeque<Frame>();
    /** Kept frames written in full, waiting for their acknowledgement, in sequence order. */
    private final ArrayDeque<Frame> unacked = new ArrayDeque<Frame>();
    /** Bytes of the frames of {@link #pending} that are not kept, not written yet ({@code maxPendingBytes}). */
    private long pendingBytes;
    /** Bytes of the kept frames, written or not ({@code maxUnackedBytes}). */
    private long keptBytes;
    /** Frames written in full on this connection after the handshake: the sequence number of the last one. */
    private long written;

    OutboundFrames(AgentCounters counters, long maxKeptBytes) {
        this.counters = counters;
        this.maxKeptBytes = maxKeptBytes;
    }

    /** Whether a span frame of {@code size} bytes can be kept: the bound holds, or nothing is kept (a large frame). */
    boolean canKeep(int size) {
        return keptBytes == 0 || keptBytes + size <= maxKeptBytes;
    }

    /** Whether kept frames fill the bound. */
    boolean keptFull() {
        return keptBytes >= maxKeptBytes;
    }

    /**
     * Queues a frame for writing. A span frame that is not kept counts as sent now; a kept one when acknowledged.
     *
     * @param spans the frame's spans; 0 for a metric or heartbeat frame
     * @param keep  keep the span frame until acknowledged (the caller checked {@link #canKeep})
     */
    void add(byte[] frame, int spans, boolean keep) {
        Frame f = new Frame(frame, spans, true, keep && spans > 0);
        pending.addLast(f);
        if (f.kept) {
            keptBytes += frame.length;
            counters.unackedSpans.addAndGet(spans);
        } else {
            pendingBytes += frame.length;
            counters.sentSpans.addAndGet(spans);
        }
    }

    /** A new connection: the numbering starts over and the handshake goes first, before the frames kept. */
    void connected(byte[] handshake) {
        written = 0;
        pending.addFirst(new Frame(handshake, 0, false, false));
        pendingBytes += handshake.length;
    }

    /** The frame to write next, with its unwritten rest; null when none. */
    ByteBuffer head() {
        Frame f = pending.peekFirst();
        return f == null ? null : f.bytes;
    }

    /** {@code bytes} of the head were written; when it is written in full it is numbered and, if kept, waits for its ack. */
    void wrote(int bytes) {
        Frame f = pending.peekFirst();
        if (f == null) {
            return;
        }
        if (!f.kept) {
            pendingBytes -= bytes;
        }
        if (f.bytes.hasRemaining()) {
            return;
        }
        pending.removeFirst();
        if (f.numbered) {
            f.sequence = ++written;
        }
        if (f.writtenBefore) {
            counters.resentSpans.addAndGet(f.spans);
        }
        if (f.kept) {
            unacked.addLast(f);
        }
    }

    /** The collector handed on every frame up to number {@code sequence}: their spans are sent. */
    void acknowledged(long sequence) {
        Frame f;
        while ((f = unacked.peekFirst()) != null && f.sequence <= sequence) {
            unacked.removeFirst();
            keptBytes -= f.size();
            counters.unackedSpans.addAndGet(-f.spans);
            counters.sentSpans.addAndGet(f.spans);
        }
    }

    /**
     * The collector does not acknowledge: nothing is kept any more, and the spans of the frames kept so far count
     * as sent, as they would have without acknowledgements.
     */
    void stopKeeping() {
        long spans = keptSpans();
        counters.unackedSpans.addAndGet(-spans);
        counters.sentSpans.addAndGet(spans);
        unacked.clear();
        for (Frame f : pending) {
            if (f.kept) {
                f.kept = false;
                pendingBytes += f.bytes.remaining();
            }
        }
        keptBytes = 0;
    }

    /** Spans of the kept frames, written or not. */
    private long keptSpans() {
        long spans = 0;
        for (Frame f : unacked) {
            spans += f.spans;
        }
        for (Frame f : pending) {
            spans += f.kept ? f.spans : 0;
        }
        return spans;
    }

    /**
     * The connection is lost: the kept frames become the pending ones, oldest first and from their first byte, to be
     * written on the next connection; the other frames are dropped with the socket, as before acknowledgements.
     */
    void lost() {
        ArrayDeque<Frame> again = new ArrayDeque<Frame>(unacked.size() + pending.size());
        for (Frame f : unacked) {
            f.writtenBefore = true;
            again.addLast(f);
        }
        for (Frame f : pending) {
            if (f.kept) {
                again.addLast(f);
            }
        }
        unacked.clear();
        pending.clear();
        pendingBytes = 0; // what is left is kept
        for (Frame f : again) {
            f.bytes.clear();
            pending.addLast(f);
        }
    }

    /** At exit: every frame is given up; the spans of those kept, never acknowledged, count as lost at exit. */
    void dropAll() {
        long spans = keptSpans();
        counters.unackedSpans.addAndGet(-spans);
        counters.lostAtExitUnackedSpans.addAndGet(spans);
        unacked.clear();
        pending.clear();
        pendingBytes = 0;
        keptBytes = 0;
    }

    /** Unwritten bytes of the frames that are not kept (kept ones are bounded by {@link #canKeep}). */
    long pendingBytes() {
        return pendingBytes;
    }

    boolean hasPending() {
        return !pending.isEmpty();
    }

    long keptBytes() {
        return keptBytes;
    }

    /** Kept frames written and waiting for their acknowledgement. */
    boolean hasUnacked() {
        return !unacked.isEmpty();
    }

    /** Frames written in full on this connection after the handshake. */
    long written() {
        return written;
    }
}
