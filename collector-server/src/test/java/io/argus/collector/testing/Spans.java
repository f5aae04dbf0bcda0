package io.argus.collector.testing;

import io.argus.protocol.Span;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.protocol.Tag;

/** Span builders for tests. */
public final class Spans {
    private Spans() {
    }

    public static Span span(long traceHigh, long traceLow, long spanId, long parentId, SpanKind kind, String name,
                            long startNanos, long durationNanos, SpanStatus status, String... tags) {
        Span.Builder b = Span.newBuilder()
                .setTraceIdHigh(traceHigh)
                .setTraceIdLow(traceLow)
                .setSpanId(spanId)
                .setParentSpanId(parentId)
                .setKind(kind)
                .setName(name)
                .setStartEpochNanos(startNanos)
                .setDurationNanos(durationNanos)
                .setStatus(status);
        for (int i = 0; i + 1 < tags.length; i += 2) {
            b.addTags(Tag.newBuilder().setKey(tags[i]).setValue(tags[i + 1]));
        }
        return b.build();
    }

    public static Span simple(long traceLow, long spanId) {
        return span(0x1234L, traceLow, spanId, 0, SpanKind.SPAN_KIND_SERVER, "GET /x", 1_700_000_000_000_000_000L,
                1_000_000L, SpanStatus.SPAN_STATUS_OK);
    }
}
