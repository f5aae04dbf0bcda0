package io.argus.collector.storage;

import java.util.Comparator;

/**
 * One call aggregation cell (kind, method, target, status) of one service, summed over every stored
 * interval: requests an HTTP server handled or an HTTP client made, or database calls. Latencies are in
 * milliseconds; p95/p99 come from the merged histogram buckets.
 */
public record CallMetricSummary(
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

    /** The order both stores answer in: most calls first, then by cell. */
    public static final Comparator<CallMetricSummary> BUSIEST_FIRST =
            Comparator.comparingLong(CallMetricSummary::count).reversed()
                    .thenComparing(CallMetricSummary::service)
                    .thenComparing(CallMetricSummary::kind)
                    .thenComparing(CallMetricSummary::method)
                    .thenComparing(CallMetricSummary::target)
                    .thenComparingInt(CallMetricSummary::status);
}
