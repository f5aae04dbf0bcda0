package io.argus.core.metrics;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CallMetricsTableTest {

    @Test
    void aggregatesPerMethodTargetAndStatus() {
        CallMetricsTable table = new CallMetricsTable(100);
        table.record("GET", "/a", 200, 1_000_000, false);
        table.record("GET", "/a", 200, 3_000_000, false);
        table.record("GET", "/a", 500, 2_000_000, true);
        table.record("POST", "/a", 200, 5_000_000, false);
        List<CallStats.Snapshot> snapshots = table.takeSnapshots();
        assertThat(snapshots).hasSize(3);
        CallStats.Snapshot ok = snapshots.stream().filter(s -> s.method.equals("GET") && s.status == 200).findFirst().get();
        assertThat(ok.count).isEqualTo(2);
        assertThat(ok.sumNanos).isEqualTo(4_000_000);
        assertThat(ok.minNanos).isEqualTo(1_000_000);
        assertThat(ok.maxNanos).isEqualTo(3_000_000);
        assertThat(ok.errors).isZero();
        assertThat(ok.bucketCounts[LatencyBuckets.indexOf(1_000_000)]).isEqualTo(1);
        CallStats.Snapshot failed = snapshots.stream().filter(s -> s.status == 500).findFirst().get();
        assertThat(failed.errors).isEqualTo(1);
        assertThat(table.takeSnapshots()).as("counts are reset after each interval").isEmpty();
    }

    @Test
    void capsDistinctTargets() {
        CallMetricsTable table = new CallMetricsTable(3);
        for (int i = 0; i < 50; i++) {
            table.record("GET", "/user/" + i, 200, 1000, false);
        }
        List<CallStats.Snapshot> snapshots = table.takeSnapshots();
        assertThat(snapshots).hasSize(4);
        assertThat(snapshots.stream().filter(s -> s.target.equals(CallMetricsTable.OVERFLOW_TARGET)).findFirst().get().count)
                .isEqualTo(47);
    }

    @Test
    void concurrentRecordingLosesNothing() throws Exception {
        CallMetricsTable table = new CallMetricsTable(100);
        int threads = 4;
        int perThread = 50_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        long[] collected = new long[4]; // count, sum, bucket counts, errors
        long maxExcess = 0;
        java.util.concurrent.atomic.AtomicLong recorded = new java.util.concurrent.atomic.AtomicLong();
        for (int t = 0; t < threads; t++) {
            pool.execute(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    table.record("GET", "/x", 200, i, i % 10 == 0);
                    recorded.incrementAndGet();
                }
            });
        }
        start.countDown();
        // snapshot while writers run: every request must land in exactly one interval
        long previousOverlap = 0;
        for (int i = 0; i < 20; i++) {
            long before = recorded.get();
            List<CallStats.Snapshot> snapshots = table.takeSnapshots();
            // requests recorded while a snapshot ran (plus one in flight per writer at either end) may
            // split between the intervals on both sides of it: an interval sees those of its two snapshots
            long overlap = recorded.get() - before + 2L * threads;
            for (CallStats.Snapshot s : snapshots) {
                long buckets = add(collected, s);
                maxExcess = Math.max(maxExcess, Math.abs(buckets - s.count) - overlap - previousOverlap);
            }
            previousOverlap = overlap;
            Thread.sleep(1);
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        for (CallStats.Snapshot s : table.takeSnapshots()) {
            add(collected, s);
        }
        long total = (long) threads * perThread;
        assertThat(collected[0]).isEqualTo(total);
        assertThat(collected[1]).isEqualTo((long) threads * ((long) perThread * (perThread - 1) / 2));
        assertThat(collected[2]).isEqualTo(total);
        assertThat(collected[3]).isEqualTo(total / 10);
        assertThat(maxExcess).as("split beyond the requests that overlapped a snapshot").isLessThanOrEqualTo(0);
    }

    private static long add(long[] collected, CallStats.Snapshot s) {
        long buckets = 0;
        for (long b : s.bucketCounts) {
            buckets += b;
        }
        collected[0] += s.count;
        collected[1] += s.sumNanos;
        collected[2] += buckets;
        collected[3] += s.errors;
        return buckets;
    }

    @Test
    void inventedHttpMethodsFoldIntoOneCell() {
        CallMetricsTable table = CallMetricsTable.forHttp(100);
        for (int i = 0; i < 1000; i++) {
            table.record("M" + i, "/x", 200, 1, false);
        }
        table.record("GET", "/x", 200, 1, false);
        table.record("PATCH", "/x", 200, 1, false);
        assertThat(table.takeSnapshots()).extracting(s -> s.method + " " + s.count)
                .containsExactlyInAnyOrder("_OTHER 1000", "GET 1", "PATCH 1");
        CallMetricsTable db = new CallMetricsTable(100);
        db.record("SELECT", "h2:mem:x", 0, 1, false);
        assertThat(db.takeSnapshots()).extracting(s -> s.method).containsExactly("SELECT");
    }

    @Test
    void bucketsAreMonotonicAndCoverSixtySeconds() {
        assertThat(LatencyBuckets.indexOf(0)).isZero();
        assertThat(LatencyBuckets.indexOf(10_000)).isZero();
        assertThat(LatencyBuckets.indexOf(10_001)).isEqualTo(1);
        assertThat(LatencyBuckets.bound(LatencyBuckets.boundCount() - 1)).isGreaterThan(60_000_000_000L);
        assertThat(LatencyBuckets.indexOf(Long.MAX_VALUE)).isEqualTo(LatencyBuckets.count() - 1);
        for (int i = 1; i < LatencyBuckets.boundCount(); i++) {
            assertThat(LatencyBuckets.bound(i)).isGreaterThan(LatencyBuckets.bound(i - 1));
        }
    }
}
