package io.argus.core.trace;

import io.argus.core.AgentCounters;

/**
 * Trace contexts left on task objects that cannot be wrapped (a {@code ForkJoinTask}, a
 * {@code Thread}) until the thread that runs them takes them. Weak and bounded; while nothing is
 * bound anywhere, taking costs one volatile read.
 */
public final class ContextBindings {

    static final int MAX_BINDINGS = 100_000;

    private final WeakIdentityMap<RecordedSpan> contexts;
    private final AgentCounters counters;

    public ContextBindings(AgentCounters counters) {
        this(counters, MAX_BINDINGS);
    }

    ContextBindings(AgentCounters counters, int max) {
        this.counters = counters;
        this.contexts = new WeakIdentityMap<RecordedSpan>(max);
    }

    public void bind(Object carrier, RecordedSpan context) {
        if (carrier == null || context == null) {
            return;
        }
        if (!contexts.put(carrier, context)) {
            counters.droppedBindings.incrementAndGet();
        }
    }

    public RecordedSpan take(Object carrier) {
        if (contexts.size() == 0 || carrier == null) {
            return null;
        }
        return contexts.remove(carrier);
    }
}
