package io.argus.testing;

/** A W3C traceparent split into its ids (lower-case hex). */
public record TraceContext(String traceId, String spanId) {

    /** The ids of {@code traceparent}, or null for a missing one (null or the text "null"). */
    public static TraceContext parse(String traceparent) {
        if (traceparent == null || "null".equals(traceparent)) {
            return null;
        }
        String[] parts = traceparent.split("-");
        if (parts.length != 4 || parts[1].length() != 32 || parts[2].length() != 16) {
            throw new AssertionError("not a traceparent: " + traceparent);
        }
        return new TraceContext(parts[1].toLowerCase(), parts[2].toLowerCase());
    }
}
