package io.argus.core.trace;

import io.argus.bridge.ActiveSpan;
import io.argus.core.AgentCounters;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * Spans attached to library objects between two probed calls (a connection's connect and its
 * response). Weakly keyed so an abandoned object frees its span, and capped so memory stays bounded.
 * Used on traced requests only.
 */
public final class CarrierBindings {

    private static final int MAX_BINDINGS = 10_000;

    private final Map<Object, ActiveSpan> spans = new WeakHashMap<Object, ActiveSpan>();
    private final AgentCounters counters;

    public CarrierBindings(AgentCounters counters) {
        this.counters = counters;
    }

    public synchronized void bind(Object carrier, ActiveSpan span) {
        if (carrier == null || span == null) {
            return;
        }
        if (spans.size() >= MAX_BINDINGS && !spans.containsKey(carrier)) {
            counters.droppedBindings.incrementAndGet();
            return;
        }
        spans.put(carrier, span);
    }

    public synchronized ActiveSpan unbind(Object carrier) {
        return carrier == null ? null : spans.remove(carrier);
    }
}
