package io.argus.collector.storage;

/** A row of trace search results: {@link TraceSummary}'s fields and how many of the trace's spans failed. */
public record TraceSearchHit(
        String traceId,
        String rootName,
        String service,
        long startEpochMs,
        double durationMs,
        long spanCount,
        long errorCount) {
}
