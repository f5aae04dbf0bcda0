package io.argus.perf.moobench;

import io.argus.perf.harness.stats.Stats;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class NanosHistogramTest {

    @Test
    void histogramQuantilesAndTrimmedMeanEqualThoseOfTheSortedValues() {
        Random random = new Random(42);
        long[] values = new long[20_001];
        NanosHistogram h = new NanosHistogram();
        for (int i = 0; i < values.length; i++) {
            // mostly small, some beyond the exact range (descheduled calls)
            values[i] = i % 500 == 0 ? NanosHistogram.EXACT + random.nextInt(10_000_000) : 50 + random.nextInt(400);
            h.add(values[i]);
        }
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        assertThat(h.count()).isEqualTo(values.length);
        assertThat(h.mean()).isCloseTo(Arrays.stream(values).average().orElseThrow(), within(1e-6));
        for (double p : new double[] {0, 0.25, 0.5, 0.75, 0.99, 0.999, 1}) {
            assertThat(h.quantile(p)).as("p=" + p).isCloseTo(Stats.quantileSorted(sorted, p), within(1e-9));
        }
        int keep = values.length - (int) Math.floor(values.length * 0.001);
        assertThat(h.trimmedMean(0.001)).isCloseTo(Stats.mean(sorted, 0, keep), within(1e-6));
        assertThat(h.trimmedMean(0)).isCloseTo(h.mean(), within(1e-6));
        assertThat(h.countAtLeast(NanosHistogram.EXACT)).isEqualTo(Arrays.stream(values).filter(v -> v >= NanosHistogram.EXACT).count());
        assertThat(h.countAtLeast(0)).isEqualTo(values.length);
    }

    @Test
    void histogramOfLargeValuesOnly() {
        NanosHistogram h = new NanosHistogram();
        for (long v : new long[] {5_000_000, 1_000_000, 3_000_000, 2_000_000, 4_000_000}) {
            h.add(v);
        }
        assertThat(h.quantile(0.5)).isEqualTo(3_000_000);
        assertThat(h.quantile(0.25)).isEqualTo(2_000_000);
        assertThat(h.trimmedMean(0.2)).isEqualTo(2_500_000);
        assertThatThrownBy(() -> new NanosHistogram().quantile(0.5)).isInstanceOf(IllegalArgumentException.class);
    }
}
