package io.argus.core.trace;

/**
 * Reads W3C {@code traceparent} and B3 headers without allocating: first {@link #w3cDecision} or
 * {@link #b3Decision} validates the header and says whether the caller sampled; only when a span
 * is actually created are the ids copied into it.
 */
public final class InboundContext {

    /** The header is absent or malformed: ignore it. */
    public static final int INVALID = -1;
    public static final int NOT_SAMPLED = 0;
    public static final int SAMPLED = 1;
    /** Ids are present but the caller left the decision to us (B3 without a sampling flag). */
    public static final int DEFER = 2;
    /** B3 carried only a sampling flag ("1" or "d"): sampled, but no ids to join. */
    public static final int SAMPLED_NO_IDS = 3;

    private static final int W3C_LENGTH = 55;

    private InboundContext() {
    }

    // ---- W3C trace context: 00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>

    public static int w3cDecision(String header) {
        if (header == null || header.length() < W3C_LENGTH) {
            return INVALID;
        }
        String h = header;
        if (h.charAt(2) != '-' || h.charAt(35) != '-' || h.charAt(52) != '-'
                || !TraceIds.isHex(h, 0, 2, false) || !TraceIds.isHex(h, 3, 32, false)
                || !TraceIds.isHex(h, 36, 16, false) || !TraceIds.isHex(h, 53, 2, false)) {
            return INVALID;
        }
        long version = TraceIds.parseHex(h, 0, 2);
        if (version == 0xff || (version == 0 && h.length() != W3C_LENGTH)
                || (version != 0 && h.length() > W3C_LENGTH && h.charAt(W3C_LENGTH) != '-')) {
            return INVALID;
        }
        if ((TraceIds.parseHex(h, 3, 16) == 0 && TraceIds.parseHex(h, 19, 16) == 0) || TraceIds.parseHex(h, 36, 16) == 0) {
            return INVALID;
        }
        return (TraceIds.parseHex(h, 53, 2) & 1) == 1 ? SAMPLED : NOT_SAMPLED;
    }

    /** Copies the trace id and makes the caller's span the parent. Call only after a valid decision. */
    public static void w3cInto(String header, RecordedSpan span) {
        span.traceIdHigh = TraceIds.parseHex(header, 3, 16);
        span.traceIdLow = TraceIds.parseHex(header, 19, 16);
        span.parentSpanId = TraceIds.parseHex(header, 36, 16);
    }

    // ---- B3 single header: {traceId}-{spanId}[-{sampling}[-{parentSpanId}]] or just {sampling}

    public static int b3Decision(String header) {
        if (header == null) {
            return INVALID;
        }
        int length = header.length();
        if (length == 1) {
            char c = header.charAt(0);
            return c == '0' ? NOT_SAMPLED : (c == '1' || c == 'd') ? SAMPLED_NO_IDS : INVALID;
        }
        int traceLength = header.indexOf('-');
        if ((traceLength != 16 && traceLength != 32) || !TraceIds.isHex(header, 0, traceLength, true)) {
            return INVALID;
        }
        int spanStart = traceLength + 1;
        if (length < spanStart + 16 || !TraceIds.isHex(header, spanStart, 16, true)) {
            return INVALID;
        }
        if (TraceIds.parseHex(header, spanStart, 16) == 0 || isZero(header, traceLength)) {
            return INVALID;
        }
        int afterSpan = spanStart + 16;
        if (length == afterSpan) {
            return DEFER;
        }
        if (header.charAt(afterSpan) != '-' || length < afterSpan + 2) {
            return INVALID;
        }
        int flagEnd = header.indexOf('-', afterSpan + 1);
        if (flagEnd < 0) {
            flagEnd = length;
        }
        int decision = b3Flag(header, afterSpan + 1, flagEnd);
        if (decision == INVALID) {
            return INVALID;
        }
        if (flagEnd < length) {
            int parentLength = length - flagEnd - 1;
            if (parentLength != 16 || !TraceIds.isHex(header, flagEnd + 1, 16, true)) {
                return INVALID;
            }
        }
        return decision;
    }

    private static int b3Flag(String header, int from, int to) {
        if (to - from == 1) {
            char c = header.charAt(from);
            return c == '1' || c == 'd' ? SAMPLED : c == '0' ? NOT_SAMPLED : INVALID;
        }
        if (header.regionMatches(true, from, "true", 0, 4) && to - from == 4) {
            return SAMPLED;
        }
        if (header.regionMatches(true, from, "false", 0, 5) && to - from == 5) {
            return NOT_SAMPLED;
        }
        return INVALID;
    }

    private static boolean isZero(String header, int length) {
        for (int i = 0; i < length; i++) {
            if (header.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }

    public static void b3Into(String header, RecordedSpan span) {
        int traceLength = header.indexOf('-');
        if (traceLength == 32) {
            span.traceIdHigh = TraceIds.parseHex(header, 0, 16);
            span.traceIdLow = TraceIds.parseHex(header, 16, 16);
        } else {
            span.traceIdHigh = 0;
            span.traceIdLow = TraceIds.parseHex(header, 0, 16);
        }
        span.parentSpanId = TraceIds.parseHex(header, traceLength + 1, 16);
    }

    /** Multi-header B3 in the single-header form; call only when X-B3-TraceId is present. */
    public static String b3FromMulti(String traceId, String spanId, String sampled) {
        if (traceId == null || spanId == null) {
            return null;
        }
        return sampled == null ? traceId + '-' + spanId : traceId + '-' + spanId + '-' + sampled;
    }
}
