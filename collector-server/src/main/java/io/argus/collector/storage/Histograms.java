package io.argus.collector.storage;

/**
 * Percentiles from fixed-bucket latency histograms.
 *
 * <p>Bucket {@code i} holds the values in {@code (bounds[i-1], bounds[i]]} (the first bucket starts at 0)
 * and the trailing bucket {@code counts[bounds.length]} holds everything above the last bound; its upper
 * edge is taken to be the observed maximum. A percentile is interpolated linearly inside the bucket that
 * holds its rank ({@code q * total}) and then clamped to the observed {@code [min, max]}.
 */
public final class Histograms {
    private Histograms() {
    }

    /**
     * @param q      quantile in (0, 1], e.g. 0.95
     * @param bounds ascending upper bounds
     * @param counts per-bucket counts, {@code bounds.length + 1} long at most (missing trailing buckets are 0)
     * @param min    smallest observed value
     * @param max    largest observed value
     */
    public static double percentile(double q, long[] bounds, long[] counts, double min, double max) {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total <= 0) {
            return 0;
        }
        double rank = q * total;
        long cumulative = 0;
        for (int i = 0; i < counts.length; i++) {
            long c = counts[i];
            if (c > 0 && cumulative + c >= rank) {
                double lower = i == 0 ? 0 : bounds[i - 1];
                double upper = i < bounds.length ? bounds[i] : Math.max(max, lower);
                double value = lower + (upper - lower) * ((rank - cumulative) / c);
                return Math.max(min, Math.min(max, value));
            }
            cumulative += c;
        }
        return max;
    }
}
