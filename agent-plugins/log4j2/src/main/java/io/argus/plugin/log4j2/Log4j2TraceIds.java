package io.argus.plugin.log4j2;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.apache.logging.log4j.util.StringMap;

/** The current span's ids in an event's context data. A helper class: defined in Log4j's class loader. */
public final class Log4j2TraceIds {

    public static final String TRACE_ID = "trace_id";
    public static final String SPAN_ID = "span_id";
    public static final String TRACE_FLAGS = "trace_flags";
    /** Only sampled spans are ever current. */
    private static final String SAMPLED = "01";

    private Log4j2TraceIds() {
    }

    /**
     * The context data an injector made for a new event, with the current span's ids: {@code injected}
     * itself when nothing is traced here (a thread-local read, no allocation) or it has a
     * {@code trace_id} already (the application's own wins). The ids go into {@code reusable}, the map
     * the event owns, when the injector filled it; any other map may be shared (a frozen snapshot of
     * the thread context), so they go into a copy.
     */
    public static StringMap withTraceIds(StringMap reusable, StringMap injected) {
        Object context = TraceContext.current();
        if (!(context instanceof ActiveSpan) || injected == null || injected.containsKey(TRACE_ID)) {
            return injected;
        }
        ActiveSpan span = (ActiveSpan) context;
        StringMap target = injected == reusable && !injected.isFrozen() ? injected : new SortedArrayStringMap(injected);
        target.putValue(TRACE_ID, span.traceIdHex());
        target.putValue(SPAN_ID, span.spanIdHex());
        target.putValue(TRACE_FLAGS, SAMPLED);
        return target;
    }
}
