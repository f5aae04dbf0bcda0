package io.argus.collector.storage;

/**
 * One HTTP aggregation cell (kind, method, target, status) of one service, summed over every stored
 * interval. Latencies are in milliseconds; p95/p99 come from the merged histogram buckets.
 */
public record HttpMetricSummary(
        String service,
        String kind,
        String method,
        String target,
        int status,
        long count,
        long errors,
        double avgMs,
        double minMs,
        double maxMs,
        double p95Ms,
        double p99Ms) {
}
