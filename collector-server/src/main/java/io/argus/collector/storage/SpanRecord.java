package io.argus.collector.storage;

import java.util.Map;

/** One stored span as the query API shows it. {@code parentSpanId} is {@code null} for a root. */
public record SpanRecord(
        String spanId,
        String parentSpanId,
        String service,
        String instance,
        String kind,
        String name,
        long startEpochNanos,
        long durationNanos,
        String status,
        Map<String, String> tags) {
}
