package io.argus.collector.storage;

/**
 * The latency histogram bounds of the Argus agent ({@code io.argus.core.metrics.LatencyBuckets}: 10 µs growing by
 * 25 % to about 60 s). The agent (Java 8, no dependencies) and the collector each compute them; {@code
 * LatencyBoundsTest} pins the two together. OTLP call cells are bucketed with them, and the Druid calls
 * datasource sums its histograms bucket by bucket assuming them.
 */
public final class LatencyBounds {
    private LatencyBounds() {
    }

    /** A fresh copy of the 71 upper bounds in nanoseconds; the overflow bucket follows the last. */
    public static long[] standardNanos() {
        long[] bounds = new long[71];
        double bound = 10_000;
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = Math.round(bound);
            bound *= 1.25;
        }
        return bounds;
    }
}
