package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.SpanSink;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * The bounded hand-off between application threads and the exporter thread: a lock-free
 * multi-producer array queue (the variant built on atomics, not sun.misc.Unsafe). A full queue drops the span and counts it; it never blocks,
 * unless {@code argus.exporter.blockWhenFull} is set (for benchmarks only): then the application thread waits for
 * room, yielding and parking briefly, while the exporter drains the queue (at most 1 s per span).
 *
 * <p>The exporter sleeps in {@link #awaitSpans} until a batch is queued or its delay ends. An application
 * thread wakes it only when its span is the one that fills the batch: on the way out of {@link #accept} it reads
 * one volatile field, and the producer index it has just written when the exporter is waiting; the unpark (and
 * a CAS that makes it happen once) is paid by one span per batch.
 */
public final class SpanQueue implements SpanSink {

    private static final long NOT_WAITING = Long.MAX_VALUE;
    private static final AtomicLongFieldUpdater<SpanQueue> WAKE_AT =
            AtomicLongFieldUpdater.newUpdater(SpanQueue.class, "wakeAtIndex");

    private final MpscAtomicArrayQueue<RecordedSpan> queue;
    private final AgentCounters counters;
    /** Spans dropped because the queue was full; with the queue's producer index, every span made. */
    private final AtomicLong refused = new AtomicLong();
    /** Producer index at which the sleeping exporter wants waking; {@link #NOT_WAITING} otherwise. */
    private volatile long wakeAtIndex = NOT_WAITING;
    private volatile Thread waiter;
    /** Benchmarks only: an application thread waits for room instead of dropping its span. */
    private final boolean blockWhenFull;
    /**
     * Whether the exporter is expected to drain the queue (running, and the collector not down): a waiting
     * application thread gives up when it is not. Kept by the exporter when {@code blockWhenFull} is set.
     */
    private volatile boolean draining;

    public SpanQueue(int capacity, AgentCounters counters) {
        this(capacity, counters, false);
    }

    public SpanQueue(int capacity, AgentCounters counters, boolean blockWhenFull) {
        this.queue = new MpscAtomicArrayQueue<RecordedSpan>(capacity);
        this.counters = counters;
        this.blockWhenFull = blockWhenFull;
        this.draining = blockWhenFull; // the exporter is about to start
    }

    @Override
    public void accept(RecordedSpan span) {
        if (!queue.offer(span) && !(blockWhenFull && offerWaiting(span))) {
            refused.incrementAndGet();
            counters.droppedSpans.incrementAndGet();
            return;
        }
        long wakeAt = wakeAtIndex;
        if (wakeAt != NOT_WAITING && queue.lvProducerIndex() >= wakeAt) {
            wake(wakeAt);
        }
    }

    /** Yields this many times before parking between attempts. */
    static final int WAIT_YIELDS = 64;
    static final long WAIT_PARK_NANOS = 20_000L;
    /** The longest one span waits; then it is dropped, so that a stalled exporter cannot hang the application. */
    static final long MAX_WAIT_NANOS = 1_000_000_000L;

    /**
     * {@code blockWhenFull} only: retries the offer, waking the exporter, while the exporter is draining and for at
     * most {@link #MAX_WAIT_NANOS}. Returns false (the span is dropped) otherwise.
     */
    private boolean offerWaiting(RecordedSpan span) {
        long deadline = System.nanoTime() + MAX_WAIT_NANOS;
        for (int attempt = 0; draining; attempt++) {
            long wakeAt = wakeAtIndex;
            if (wakeAt != NOT_WAITING) {
                wake(wakeAt);
            }
            if (attempt < WAIT_YIELDS) {
                Thread.yield();
            } else if (System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(this, WAIT_PARK_NANOS);
            } else {
                return false;
            }
            if (queue.offer(span)) {
                return true;
            }
        }
        return false;
    }

    /** Exporter: whether it will drain the queue (sending or discarding); false once it stops or the collector is down. */
    void draining(boolean draining) {
        if (this.draining != draining) {
            this.draining = draining;
        }
    }

    private void wake(long wakeAt) {
        if (WAKE_AT.compareAndSet(this, wakeAt, NOT_WAITING)) {
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Exporter thread only: sleeps until {@code count} spans are queued or {@code nanos} have passed (or an
     * unpark, e.g. at shutdown). Returns at once when they are queued already.
     */
    void awaitSpans(int count, long nanos) {
        if (waiter == null) {
            waiter = Thread.currentThread();
        }
        long wakeAt = queue.lvConsumerIndex() + count;
        wakeAtIndex = wakeAt;
        // read after publishing wakeAtIndex: either this sees the span that fills the batch, or its producer
        // sees wakeAtIndex and unparks
        if (queue.lvProducerIndex() < wakeAt) {
            LockSupport.parkNanos(this, nanos);
        }
        wakeAtIndex = NOT_WAITING;
    }

    /** Moves up to {@code limit} spans into {@code out}; returns how many. Exporter thread only. */
    int drainTo(final List<RecordedSpan> out, int limit) {
        int n = 0;
        RecordedSpan span;
        while (n < limit && (span = queue.relaxedPoll()) != null) {
            out.add(span);
            n++;
        }
        return n;
    }

    int size() {
        return queue.size();
    }

    /**
     * Spans handed to this queue since start, taken or refused: the queue's producer index counts every span it took,
     * so the hot path pays nothing for this.
     */
    long made() {
        return queue.lvProducerIndex() + refused.get();
    }
}
