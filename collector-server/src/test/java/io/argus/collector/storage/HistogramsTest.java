package io.argus.collector.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HistogramsTest {
    static final long[] BOUNDS = {10, 20, 50, 100};

    @Test
    void interpolatesInsideTheBucket() {
        long[] counts = {10, 50, 30, 10};
        assertThat(Histograms.percentile(0.95, BOUNDS, counts, 5, 120)).isCloseTo(75.0, within(1e-9));
        assertThat(Histograms.percentile(0.99, BOUNDS, counts, 5, 120)).isCloseTo(95.0, within(1e-9));
        assertThat(Histograms.percentile(0.50, BOUNDS, counts, 5, 120)).isCloseTo(18.0, within(1e-9));
    }

    @Test
    void clampsToObservedMinAndMax() {
        // everything in the first bucket (0, 10] but the smallest value seen was 8
        assertThat(Histograms.percentile(0.05, BOUNDS, new long[] {10}, 8, 9)).isEqualTo(8.0);
        // interpolation would say 19.5 but nothing above 15 was seen
        assertThat(Histograms.percentile(0.99, BOUNDS, new long[] {0, 10}, 12, 15)).isEqualTo(15.0);
    }

    @Test
    void overflowBucketEndsAtMax() {
        long[] counts = {0, 0, 0, 0, 4};
        assertThat(Histograms.percentile(0.5, BOUNDS, counts, 150, 300)).isCloseTo(200.0, within(1e-9));
    }

    @Test
    void emptyHistogramIsZero() {
        assertThat(Histograms.percentile(0.95, BOUNDS, new long[0], 0, 0)).isZero();
        assertThat(Histograms.percentile(0.95, new long[0], new long[] {0}, 0, 0)).isZero();
    }
}
