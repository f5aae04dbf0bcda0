package io.argus.collector.storage;

import java.util.List;

/**
 * Metric side of the storage: call aggregation cells (HTTP and database, deltas per flush) and JVM gauges, read and
 * retention ({@link IngestSink#offerMetrics} writes).
 */
public interface MetricStore {

    /**
     * Call metrics summed over every stored interval, one entry per (service, kind, method, target, status).
     *
     * @param service only this service; {@code null} for all
     * @param kind    {@code "server"}, {@code "client"}, {@code "db"} (database calls: method = statement type,
     *                target = database) or {@code null} for all
     */
    default List<CallMetricSummary> callMetrics(String service, String kind) {
        return callMetrics(service, kind, null);
    }

    /** Like {@link #callMetrics(String, String)}, over the cells timestamped in {@code range} ({@code null}: all). */
    List<CallMetricSummary> callMetrics(String service, String kind, TimeRange range);

    /**
     * Requests per second, error rate and latency percentiles per step, from the cells' counts and merged
     * histograms: exact at any trace sampling rate.
     */
    RedSeries redSeries(RedQuery query);

    /**
     * The finest time resolution of the stored call metric cells: a RED query whose range starts and ends at
     * multiples of it counts every cell whole. 1 where each cell keeps its own time (the embedded store).
     */
    default long callResolutionMs() {
        return 1;
    }

    /** JVM gauges of one service's instances in {@code range}: per step the last sample of each gauge. */
    JvmSeries jvmSeries(String service, TimeRange range, long stepMs);

    /** The JVM gauges of one service: per instance the latest values and the last {@code points} samples. */
    JvmMetrics jvmMetrics(String service, int points);

    /**
     * Deletes call metric cells and JVM gauge samples timestamped before {@code epochMs} (retention). Like
     * {@link SpanStore#deleteSpansBefore}, it must not stop ingest meanwhile.
     *
     * @return the number of rows deleted
     */
    long deleteMetricsBefore(long epochMs);
}
