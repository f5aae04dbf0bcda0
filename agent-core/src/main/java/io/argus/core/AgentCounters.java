package io.argus.core;

import java.util.concurrent.atomic.AtomicLong;

/** The agent's own health counters, sent with every heartbeat and exposed as agent.* gauges. */
public final class AgentCounters {
    public final AtomicLong droppedSpans = new AtomicLong();
    public final AtomicLong droppedMetricBatches = new AtomicLong();
    public final AtomicLong adviceErrors = new AtomicLong();
    public final AtomicLong sentSpans = new AtomicLong();
    public final AtomicLong droppedBindings = new AtomicLong();
}
