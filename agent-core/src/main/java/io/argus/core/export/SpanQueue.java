package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.SpanSink;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;

import java.util.List;

/**
 * The bounded hand-off between application threads and the exporter thread: a lock-free
 * multi-producer array queue (the variant built on atomics, not sun.misc.Unsafe). A full queue drops the span and counts it; it never blocks.
 */
public final class SpanQueue implements SpanSink {

    private final MpscAtomicArrayQueue<RecordedSpan> queue;
    private final AgentCounters counters;

    public SpanQueue(int capacity, AgentCounters counters) {
        this.queue = new MpscAtomicArrayQueue<RecordedSpan>(capacity);
        this.counters = counters;
    }

    @Override
    public void accept(RecordedSpan span) {
        if (!queue.offer(span)) {
            counters.droppedSpans.incrementAndGet();
        }
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
