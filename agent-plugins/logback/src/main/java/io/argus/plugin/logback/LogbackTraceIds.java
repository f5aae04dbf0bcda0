package io.argus.plugin.logback;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.ObjectField;

import java.util.HashMap;
import java.util.Map;

/**
 * The span a logging event was created under, and its MDC map with the span's ids. A helper class:
 * defined in Logback's class loader.
 */
public final class LogbackTraceIds {

    static final String SPAN = "logback.span";

    public static final String TRACE_ID = "trace_id";
    public static final String SPAN_ID = "span_id";
    public static final String TRACE_FLAGS = "trace_flags";
    /** Only sampled spans are ever current. */
    private static final String SAMPLED = "01";

    /** The span current on the thread that created the event; set only when there is one. */
    public static final ObjectField<ActiveSpan> EVENT_SPAN = ObjectField.named(SPAN);

    private LogbackTraceIds() {
    }

    /** On the logging thread: remembers the current span on the event. A thread-local read when nothing is traced. */
    public static void capture(Object event) {
        Object context = TraceContext.current();
        if (context instanceof ActiveSpan) {
            EVENT_SPAN.set(event, (ActiveSpan) context);
        }
    }

    /**
     * The event's MDC map with its span's ids: {@code mdc} itself when the event has no span or the
     * map has a {@code trace_id} already (the application's own wins), else a copy with the ids.
     */
    public static Map<String, String> withTraceIds(Object event, Map<String, String> mdc) {
        ActiveSpan span = EVENT_SPAN.get(event);
        if (span == null || (mdc != null && mdc.containsKey(TRACE_ID))) {
            return mdc;
        }
        Map<String, String> copy = mdc == null ? new HashMap<String, String>() : new HashMap<String, String>(mdc);
        copy.put(TRACE_ID, span.traceIdHex());
        copy.put(SPAN_ID, span.spanIdHex());
        copy.put(TRACE_FLAGS, SAMPLED);
        return copy;
    }
}
