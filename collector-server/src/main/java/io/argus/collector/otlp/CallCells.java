package io.argus.collector.otlp;

import io.argus.collector.storage.LatencyBounds;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.MetricBatch;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Call metric cells (kind, method, target, status) built from single observations, with the same latency buckets
 * as the Argus agent ({@link LatencyBounds}), so that both kinds of sender merge in the store.
 */
final class CallCells {
    static final long[] BOUNDS = LatencyBounds.standardNanos();

    private final Map<Key, Cell> cells = new LinkedHashMap<>();

    private record Key(CallMetricKind kind, String method, String target, int status) {
    }

    private static final class Cell {
        long count;
        long errors;
        long sum;
        long min = Long.MAX_VALUE;
        long max;
        final long[] buckets = new long[BOUNDS.length + 1];
    }

    void add(CallMetricKind kind, String method, String target, int status, long nanos, boolean error) {
        Cell c = cells.computeIfAbsent(new Key(kind, method, target, status), k -> new Cell());
        c.count++;
        if (error) {
            c.errors++;
        }
        c.sum += nanos;
        c.min = Math.min(c.min, nanos);
        c.max = Math.max(c.max, nanos);
        int i = Arrays.binarySearch(BOUNDS, nanos);
        c.buckets[i >= 0 ? i : -i - 1]++;
    }

    boolean isEmpty() {
        return cells.isEmpty();
    }

    int size() {
        return cells.size();
    }

    /** One metric batch of every cell, stamped {@code timestampMs}. */
    MetricBatch batch(long timestampMs) {
        MetricBatch.Builder b = MetricBatch.newBuilder().setTimestampMs(timestampMs);
        for (long bound : BOUNDS) {
            b.addBucketBoundsNanos(bound);
        }
        cells.forEach((k, c) -> {
            CallMetric.Builder m = CallMetric.newBuilder().setKind(k.kind()).setMethod(k.method())
                    .setTarget(k.target()).setStatus(k.status()).setCount(c.count).setErrors(c.errors)
                    .setSumNanos(c.sum).setMinNanos(c.min).setMaxNanos(c.max);
            int last = c.buckets.length - 1;
            while (last >= 0 && c.buckets[last] == 0) {
                last--;
            }
            for (int i = 0; i <= last; i++) {
                m.addBucketCounts(c.buckets[i]);
            }
            b.addCalls(m);
        });
        return b.build();
    }
}
