package io.argus.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's own health counters, sent with every heartbeat and exposed as agent.* gauges. Every span the agent
 * makes ends in exactly one of {@link #sentSpans} (acknowledged), {@link #droppedSpans}, or, at exit, lost at exit
 * ({@link #lostAtExitQueuedSpans} + {@link #lostAtExitUnackedSpans}); until then it is queued or
 * {@link #unackedSpans}.
 */
public final class AgentCounters {
    public final AtomicLong droppedSpans = new AtomicLong();
    public final AtomicLong droppedMetricBatches = new AtomicLong();
    public final AtomicLong adviceErrors = new AtomicLong();
    /** Spans the collector acknowledged (or, from a collector that does not acknowledge, written to it). */
    public final AtomicLong sentSpans = new AtomicLong();
    /** Spans written again after a lost connection because their acknowledgement had not arrived. */
    public final AtomicLong resentSpans = new AtomicLong();
    /** Spans the collector connection holds until acknowledged (written, or waiting to be): neither sent nor dropped yet. */
    public final AtomicLong unackedSpans = new AtomicLong();
    public final AtomicLong droppedBindings = new AtomicLong();
    /** At exit: spans still in the queue, never taken by the exporter (the collector was unreachable). */
    public final AtomicLong lostAtExitQueuedSpans = new AtomicLong();
    /** At exit: spans of frames the connection held (written, or to be written again) that were never acknowledged. */
    public final AtomicLong lostAtExitUnackedSpans = new AtomicLong();
}
