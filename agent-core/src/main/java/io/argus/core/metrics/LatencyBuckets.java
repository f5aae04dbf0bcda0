package io.argus.core.metrics;

/**
 * Fixed latency histogram buckets: upper bounds grow by 25% from 10 µs to about 60 s, so any
 * percentile read from them is within 12.5% of the true value. The collector receives the bounds
 * with every metric batch.
 */
public final class LatencyBuckets {

    private static final long[] BOUNDS = computeBounds();
    /** For each k, the bucket of 2^k ns: where the scan for a value in [2^k, 2^(k+1)) starts (at most 4 steps). */
    private static final int[] FIRST_BY_LOG2 = computeFirstByLog2();

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

    private static int[] computeFirstByLog2() {
        int[] first = new int[64];
        for (int k = 0; k < 63; k++) {
            first[k] = searchIndexOf(1L << k);
        }
        first[63] = BOUNDS.length;
        return first;
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

    /**
     * The first bucket whose upper bound is at least {@code nanos}; the overflow bucket beyond the last. Called
     * for every request: a table look-up by the value's highest bit, then a short scan, instead of a binary
     * search's seven unpredictable branches.
     */
    public static int indexOf(long nanos) {
        if (nanos <= 0) {
            return 0;
        }
        int i = FIRST_BY_LOG2[63 - Long.numberOfLeadingZeros(nanos)];
        while (i < BOUNDS.length && BOUNDS[i] < nanos) {
            i++;
        }
        return i;
    }

    /** {@link #indexOf} by binary search: builds the table, and is what the table must agree with. */
    static int searchIndexOf(long nanos) {
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
