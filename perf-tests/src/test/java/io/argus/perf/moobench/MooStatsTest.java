package io.argus.perf.moobench;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MooStatsTest {

    @Test
    void meanSdAndConfidenceIntervalOfAKnownSample() {
        double[] x = {2, 4, 4, 4, 5, 5, 7, 9};
        MooStats.Summary s = MooStats.summarize(x);
        assertThat(s.n).isEqualTo(8);
        assertThat(s.mean).isEqualTo(5.0);
        // sample variance 32 / 7
        assertThat(s.sd).isCloseTo(Math.sqrt(32.0 / 7), within(1e-12));
        // R: qt(0.975, 7) = 2.364624; half-width = qt * sd / sqrt(8)
        assertThat(s.ci95).isCloseTo(2.364624 * Math.sqrt(32.0 / 7) / Math.sqrt(8), within(1e-5));
        assertThat(s.min).isEqualTo(2);
        assertThat(s.max).isEqualTo(9);
        // R: quantile(c(2,4,4,4,5,5,7,9)) -> 4.00 4.50 5.50 (type 7)
        assertThat(s.q1).isEqualTo(4.0);
        assertThat(s.median).isEqualTo(4.5);
        assertThat(s.q3).isCloseTo(5.5, within(1e-12));
        assertThat(x).containsExactly(2, 4, 4, 4, 5, 5, 7, 9);
    }

    @Test
    void type7QuantilesAsR() {
        double[] x = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
        // R: quantile(1:10, c(.25, .5, .75, .9)) -> 3.25 5.50 7.75 9.10
        assertThat(MooStats.quantile(x, 0.25)).isCloseTo(3.25, within(1e-12));
        assertThat(MooStats.quantile(x, 0.5)).isCloseTo(5.5, within(1e-12));
        assertThat(MooStats.quantile(x, 0.75)).isCloseTo(7.75, within(1e-12));
        assertThat(MooStats.quantile(x, 0.9)).isCloseTo(9.1, within(1e-12));
        assertThat(MooStats.quantile(x, 0)).isEqualTo(1);
        assertThat(MooStats.quantile(x, 1)).isEqualTo(10);
        assertThat(MooStats.quantile(new double[] {42}, 0.5)).isEqualTo(42);
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(MooStats.quantileSorted(sorted, 0.25)).isCloseTo(3.25, within(1e-12));
        assertThatThrownBy(() -> MooStats.quantile(new double[0], 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MooStats.quantile(x, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void confidenceIntervalUsesStudentsTAndTendsToTheNormal() {
        // R: qt(0.975, 1) = 12.7062, qt(0.975, 29) = 2.04523, qnorm(0.975) = 1.959964
        assertThat(MooStats.ciHalfWidth(1, 2, 0.95)).isCloseTo(12.7062 / Math.sqrt(2), within(1e-4));
        assertThat(MooStats.ciHalfWidth(1, 30, 0.95)).isCloseTo(2.04523 / Math.sqrt(30), within(1e-5));
        assertThat(MooStats.ciHalfWidth(1, 1_000_000, 0.95)).isCloseTo(1.959964 / 1000, within(1e-6));
        assertThat(MooStats.ciHalfWidth(1, 1, 0.95)).isZero();
        MooStats.Summary one = MooStats.summarize(new double[] {3});
        assertThat(one.ci95).isZero();
        assertThat(one.sd).isZero();
        assertThat(one.median).isEqualTo(3);
    }

    @Test
    void linearFitWithAndWithoutNoise() {
        MooStats.Fit exact = MooStats.linearFit(new double[] {1, 2, 4, 8, 16, 32}, new double[] {3, 5, 9, 17, 33, 65});
        assertThat(exact.slope).isCloseTo(2, within(1e-12));
        assertThat(exact.intercept).isCloseTo(1, within(1e-12));
        assertThat(exact.r2).isCloseTo(1, within(1e-12));
        assertThat(exact.at(10)).isCloseTo(21, within(1e-12));
        // hand-computed: slope 6/10, intercept 4 - 0.6 * 3, SSres 2.4, SStot 6
        MooStats.Fit noisy = MooStats.linearFit(new double[] {1, 2, 3, 4, 5}, new double[] {2, 4, 5, 4, 5});
        assertThat(noisy.slope).isCloseTo(0.6, within(1e-12));
        assertThat(noisy.intercept).isCloseTo(2.2, within(1e-12));
        assertThat(noisy.r2).isCloseTo(0.6, within(1e-12));
        assertThat(noisy.n).isEqualTo(5);
        assertThatThrownBy(() -> MooStats.linearFit(new double[] {1, 1}, new double[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MooStats.linearFit(new double[] {1}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void differenceOfMeansCombinesTheIntervals() {
        double[] d = MooStats.difference(130, 3, 100, 4);
        assertThat(d[0]).isEqualTo(30);
        assertThat(d[1]).isEqualTo(5);
    }

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
            assertThat(h.quantile(p)).as("p=" + p).isCloseTo(MooStats.quantileSorted(sorted, p), within(1e-9));
        }
        int keep = values.length - (int) Math.floor(values.length * 0.001);
        assertThat(h.trimmedMean(0.001)).isCloseTo(MooStats.mean(sorted, 0, keep), within(1e-6));
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
