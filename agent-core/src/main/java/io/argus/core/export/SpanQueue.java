package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.SpanSink;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * The bounded hand-off between application threads and the exporter thread: a lock-free
 * multi-producer array queue (the variant built on atomics, not sun.misc.Unsafe). A full queue drops the span and counts it; it never blocks.
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
    /** Producer index at which the sleeping exporter wants waking; {@link #NOT_WAITING} otherwise. */
    private volatile long wakeAtIndex = NOT_WAITING;
    private volatile Thread waiter;

    public SpanQueue(int capacity, AgentCounters counters) {
        this.queue = new MpscAtomicArrayQueue<RecordedSpan>(capacity);
        this.counters = counters;
    }

    @Override
    public void accept(RecordedSpan span) {
        if (!queue.offer(span)) {
            counters.droppedSpans.incrementAndGet();
            return;
        }
        long wakeAt = wakeAtIndex;
        if (wakeAt != NOT_WAITING && queue.lvProducerIndex() >= wakeAt) {
            wake(wakeAt);
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
}
