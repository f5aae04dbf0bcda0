package io.argus.core.metrics;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyBucketsTest {

    @Test
    void tableLookUpAgreesWithBinarySearch() {
        long[] edges = {Long.MIN_VALUE, -1, 0, 1, 2, 9_999, 10_000, 10_001, 12_500, 12_501, Long.MAX_VALUE - 1,
                Long.MAX_VALUE};
        for (long nanos : edges) {
            assertThat(LatencyBuckets.indexOf(nanos)).as("%d ns", nanos).isEqualTo(LatencyBuckets.searchIndexOf(nanos));
        }
        for (int i = 0; i < LatencyBuckets.boundCount(); i++) {
            long bound = LatencyBuckets.bound(i);
            for (long nanos = bound - 1; nanos <= bound + 1; nanos++) {
                assertThat(LatencyBuckets.indexOf(nanos)).as("%d ns", nanos)
                        .isEqualTo(LatencyBuckets.searchIndexOf(nanos));
            }
        }
        for (int k = 0; k < 63; k++) {
            long power = 1L << k;
            for (long nanos : new long[] {power - 1, power, power + 1}) {
                assertThat(LatencyBuckets.indexOf(nanos)).as("%d ns", nanos)
                        .isEqualTo(LatencyBuckets.searchIndexOf(nanos));
            }
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            long nanos = random.nextLong() >>> random.nextInt(64);
            assertThat(LatencyBuckets.indexOf(nanos)).as("%d ns", nanos).isEqualTo(LatencyBuckets.searchIndexOf(nanos));
        }
    }
}
