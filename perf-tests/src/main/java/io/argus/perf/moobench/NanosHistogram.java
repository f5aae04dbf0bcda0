package io.argus.perf.moobench;

import java.util.Arrays;

/**
 * Exact counts of durations in whole nanoseconds: one counter per value below {@link #EXACT},
 * the rarer larger values (preemptions, GC pauses) kept as they are. Lets the quartiles of
 * several runs' millions of calls be computed exactly without keeping every run's array.
 */
public final class NanosHistogram {

    static final int EXACT = 1 << 18;

    private final int[] counts = new int[EXACT];
    private long[] large = new long[64];
    private int largeCount;
    private boolean largeSorted = true;
    private long total;
    private double sum;

    public void add(long nanos) {
        long v = Math.max(0, nanos);
        if (v < EXACT) {
            counts[(int) v]++;
        } else {
            if (largeCount == large.length) {
                large = Arrays.copyOf(large, large.length * 2);
            }
            large[largeCount++] = v;
            largeSorted = false;
        }
        total++;
        sum += v;
    }

    public void addAll(long[] values, int from, int to) {
        for (int i = from; i < to; i++) {
            add(values[i]);
        }
    }

    public long count() {
        return total;
    }

    public double mean() {
        return total == 0 ? Double.NaN : sum / total;
    }

    /** How many values are at least {@code nanos}. */
    public long countAtLeast(long nanos) {
        long n = 0;
        for (int i = 0; i < largeCount; i++) {
            if (large[i] >= nanos) {
                n++;
            }
        }
        for (long v = Math.max(0, nanos); v < EXACT; v++) {
            n += counts[(int) v];
        }
        return n;
    }

    /**
     * The mean of the fastest values, leaving out the slowest {@code fraction} (rounded down to
     * whole values): a mean that a few descheduled calls cannot move.
     */
    public double trimmedMean(double fraction) {
        if (total == 0 || fraction < 0 || fraction >= 1) {
            throw new IllegalArgumentException("trimmed mean of " + total + " values without " + fraction);
        }
        long keep = total - (long) Math.floor(total * fraction);
        long taken = 0;
        double sum = 0;
        for (int v = 0; v < EXACT && taken < keep; v++) {
            long n = Math.min(counts[v], keep - taken);
            sum += (double) n * v;
            taken += n;
        }
        if (taken < keep) {
            if (!largeSorted) {
                Arrays.sort(large, 0, largeCount);
                largeSorted = true;
            }
            for (int i = 0; taken < keep; i++, taken++) {
                sum += large[i];
            }
        }
        return sum / keep;
    }

    /** The value of the given 0-based rank in sorted order. */
    public long valueAtRank(long rank) {
        if (rank < 0 || rank >= total) {
            throw new IllegalArgumentException("rank " + rank + " of " + total);
        }
        long seen = 0;
        for (int v = 0; v < EXACT; v++) {
            seen += counts[v];
            if (seen > rank) {
                return v;
            }
        }
        if (!largeSorted) {
            Arrays.sort(large, 0, largeCount);
            largeSorted = true;
        }
        return large[(int) (rank - seen)];
    }

    /** Type-7 quantile, as {@link MooStats#quantile}. */
    public double quantile(double p) {
        if (total == 0 || p < 0 || p > 1) {
            throw new IllegalArgumentException("quantile " + p + " of " + total + " values");
        }
        double h = (total - 1) * p;
        long lo = (long) Math.floor(h);
        long hi = Math.min(lo + 1, total - 1);
        long a = valueAtRank(lo);
        long b = hi == lo ? a : valueAtRank(hi);
        return a + (h - lo) * (b - a);
    }
}
