package io.argus.bridge;

/**
 * A sampled span as advice sees it. Advice only ever holds one of these when the request is
 * traced; an untraced request gets {@code null} from {@link Argus}, so advice checks for null
 * before touching it.
 */
public abstract class ActiveSpan {

    /** The W3C {@code traceparent} value that makes a downstream span a child of this one. */
    public abstract String traceparent();

    /** The inbound {@code tracestate}, passed on unchanged; {@code null} when there was none. */
    public abstract String tracestate();

    /** The trace id as 32 lower-case hex digits (for log correlation: {@code trace_id}). */
    public abstract String traceIdHex();

    /** The span id as 16 lower-case hex digits (for log correlation: {@code span_id}). */
    public abstract String spanIdHex();

    /** Adds a string tag. Keys should be the constants of {@link Tags}. */
    public abstract void tag(String key, String value);
}
