package io.argus.core.metrics;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * Counters of one (method, target, status) cell. Updated lock-free by application threads;
 * read and reset once per flush interval by the exporter with atomic swaps, so no request is lost
 * or counted twice.
 *
 * <p>The count is not a counter of its own: it is the sum of the latency buckets, one of which every request
 * adds to, so a request costs one atomic add fewer (two in all, three with an error).
 *
 * <p>The swaps are per counter, not one atomic step, so a request whose {@link #record} overlaps a snapshot can
 * be split between two intervals. The order keeps every interval one the collector accepts: a request adds its
 * error, sum and extremes first and its bucket last, and a snapshot swaps the buckets first; so the only split
 * is an error (or sum, or extreme) taken one interval before its request's bucket. The snapshot hands such
 * errors back ({@code errors ≤ count} in every interval, exact over the intervals) and keeps {@code min ≤ max}.
 * Making the swap atomic would cost every request a lock or two more atomic operations.
 */
public final class CallStats {

    private static final AtomicLongFieldUpdater<CallStats> ERRORS = AtomicLongFieldUpdater.newUpdater(CallStats.class, "errors");
    private static final AtomicLongFieldUpdater<CallStats> SUM = AtomicLongFieldUpdater.newUpdater(CallStats.class, "sumNanos");
    private static final AtomicLongFieldUpdater<CallStats> MIN = AtomicLongFieldUpdater.newUpdater(CallStats.class, "minNanos");
    private static final AtomicLongFieldUpdater<CallStats> MAX = AtomicLongFieldUpdater.newUpdater(CallStats.class, "maxNanos");

    final String method;
    final String target;
    final int status;
    private volatile long errors;
    private volatile long sumNanos;
    private volatile long minNanos = Long.MAX_VALUE;
    private volatile long maxNanos;
    private final AtomicLongArray buckets = new AtomicLongArray(LatencyBuckets.count());

    CallStats(String method, String target, int status) {
        this.method = method;
        this.target = target;
        this.status = status;
    }

    void record(long nanos, boolean error) {
        record(nanos, error, 1);
    }

    /** {@code times} calls that each took {@code nanos} (a batch of messages acknowledged together). */
    void record(long nanos, boolean error, int times) {
        if (error) {
            ERRORS.addAndGet(this, times);
        }
        SUM.addAndGet(this, nanos * times);
        long min;
        while (nanos < (min = minNanos) && !MIN.compareAndSet(this, min, nanos)) {
            // retry
        }
        long max;
        while (nanos > (max = maxNanos) && !MAX.compareAndSet(this, max, nanos)) {
            // retry
        }
        // last: a snapshot that sees the request's bucket sees the rest of it too
        buckets.addAndGet(LatencyBuckets.indexOf(nanos), times);
    }

    /** Takes the counts of the interval that just ended; null when nothing happened in it. */
    Snapshot takeSnapshot() {
        long[] counts = null;
        long c = 0;
        for (int i = 0; i < LatencyBuckets.count(); i++) {
            // a plain read first: a cell's requests fall in few buckets, and most cells are idle
            if (buckets.get(i) != 0) {
                if (counts == null) {
                    counts = new long[LatencyBuckets.count()];
                }
                counts[i] = buckets.getAndSet(i, 0);
                c += counts[i];
            }
        }
        if (c == 0) {
            return null;
        }
        long e = ERRORS.getAndSet(this, 0);
        if (e > c) {
            // errors of requests whose buckets come after this snapshot: they go with their requests
            ERRORS.addAndGet(this, e - c);
            e = c;
        }
        long sum = SUM.getAndSet(this, 0);
        long min = MIN.getAndSet(this, Long.MAX_VALUE);
        long max = MAX.getAndSet(this, 0);
        if (min != Long.MAX_VALUE && min > max) {
            max = min; // the maximum went to the interval before, with a split request's
        }
        return new Snapshot(method, target, status, c, e, sum, min, max, counts);
    }

    /** The counts of one cell over one interval. */
    public static final class Snapshot {
        public final String method;
        public final String target;
        public final int status;
        public final long count;
        public final long errors;
        public final long sumNanos;
        public final long minNanos;
        public final long maxNanos;
        public final long[] bucketCounts;

        Snapshot(String method, String target, int status, long count, long errors, long sumNanos, long minNanos,
                 long maxNanos, long[] bucketCounts) {
            this.method = method;
            this.target = target;
            this.status = status;
            this.count = count;
            this.errors = errors;
            this.sumNanos = sumNanos;
            this.minNanos = minNanos == Long.MAX_VALUE ? 0 : minNanos;
            this.maxNanos = maxNanos;
            this.bucketCounts = bucketCounts;
        }
    }
}
