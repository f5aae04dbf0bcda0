package io.argus.core;

import java.util.concurrent.atomic.AtomicLong;

/** The agent's own health counters, sent with every heartbeat and exposed as agent.* gauges. */
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
}
