package io.argus.core.metrics;

/**
 * Fixed latency histogram buckets: upper bounds grow by 25% from 10 µs to about 60 s, so any
 * percentile read from them is within 12.5% of the true value. The collector receives the bounds
 * with every metric batch.
 */
public final class LatencyBuckets {

    private static final long[] BOUNDS = computeBounds();

    private LatencyBuckets() {
    }

    private static long[] computeBounds() {
        long[] bounds = new long[71];
        double bound = 10_000;
        for (int i = 0; i < bounds.length; i++) {
            bounds[i] = Math.round(bound);
            bound *= 1.25;
        }
        return bounds;
    }

    /** Number of buckets: one per bound plus the overflow bucket. */
    public static int count() {
        return BOUNDS.length + 1;
    }

    public static long bound(int index) {
        return BOUNDS[index];
    }

    public static int boundCount() {
        return BOUNDS.length;
    }

    /** The first bucket whose upper bound is at least {@code nanos}; the overflow bucket beyond the last. */
    public static int indexOf(long nanos) {
        int low = 0;
        int high = BOUNDS.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (BOUNDS[mid] < nanos) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }
}
