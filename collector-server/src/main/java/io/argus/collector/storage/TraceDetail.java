package io.argus.collector.storage;

import java.util.List;

/** All stored spans of one trace, sorted by start time. */
public record TraceDetail(String traceId, List<SpanRecord> spans) {
}
