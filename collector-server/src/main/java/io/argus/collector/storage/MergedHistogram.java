package io.argus.collector.storage;

import java.util.Map;
import java.util.TreeMap;

/**
 * Latency histograms of several cells added up by bucket bound, so that cells whose agents used different
 * bounds still merge. The overflow bucket (above the last bound) is kept apart.
 */
public final class MergedHistogram {
    private final TreeMap<Long, Long> byBound = new TreeMap<>();
    private long overflow;

    /** Adds {@code count} to the bucket ending at {@code bound}; {@code null} is the overflow bucket. */
    public void add(Long bound, long count) {
        if (bound == null) {
            overflow += count;
        } else {
            byBound.merge(bound, count, Long::sum);
        }
    }

    /** The quantile {@code q}, in nanoseconds, clamped to the observed {@code [minNanos, maxNanos]}. */
    public double percentile(double q, double minNanos, double maxNanos) {
        long[] bounds = new long[byBound.size()];
        long[] counts = new long[byBound.size() + 1];
        int i = 0;
        for (Map.Entry<Long, Long> e : byBound.entrySet()) {
            bounds[i] = e.getKey();
            counts[i++] = e.getValue();
        }
        counts[i] = overflow;
        return Histograms.percentile(q, bounds, counts, minNanos, maxNanos);
    }
}
