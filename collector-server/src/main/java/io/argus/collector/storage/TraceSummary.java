package io.argus.collector.storage;

/**
 * One row of the recent-traces list. The root is the span without a parent; while no root is
 * stored yet, the trace's earliest span stands in for it.
 */
public record TraceSummary(
        String traceId,
        String rootName,
        String service,
        long startEpochMs,
        double durationMs,
        long spanCount) {
}
