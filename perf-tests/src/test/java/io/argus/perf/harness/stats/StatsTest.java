package io.argus.perf.harness.stats;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class StatsTest {

    private static final double[] ONE_TO_TEN = {7, 3, 10, 1, 5, 9, 2, 8, 4, 6};

    @Test
    void meanVarianceAndMedian() {
        assertThat(Stats.mean(ONE_TO_TEN)).isEqualTo(5.5);
        // Σ(x - 5.5)² = 82.5 over n - 1 = 9
        assertThat(Stats.variance(ONE_TO_TEN)).isCloseTo(82.5 / 9, within(1e-12));
        assertThat(Stats.median(ONE_TO_TEN)).isEqualTo(5.5);
        assertThat(Stats.median(new double[]{3, 1, 2})).isEqualTo(2);
        assertThat(Stats.variance(new double[]{4})).isZero();
    }

    @Test
    void quantilesAreType7() {
        // h = (n - 1) p: p = 0.25 -> h = 2.25 -> 3 + 0.25 (4 - 3)
        assertThat(Stats.quantile(ONE_TO_TEN, 0.25)).isCloseTo(3.25, within(1e-12));
        assertThat(Stats.quantile(ONE_TO_TEN, 0.75)).isCloseTo(7.75, within(1e-12));
        assertThat(Stats.quantile(ONE_TO_TEN, 0)).isEqualTo(1);
        assertThat(Stats.quantile(ONE_TO_TEN, 1)).isEqualTo(10);
        // R: quantile(c(1, 2, 4, 8), 0.9) = 6.8
        assertThat(Stats.quantile(new double[]{8, 1, 4, 2}, 0.9)).isCloseTo(6.8, within(1e-12));
    }

    @Test
    void medianConfidenceIntervalFromOrderStatistics() {
        // n = 10: P(B <= 1) = 11/1024, P(B <= 2) = 56/1024 -> (x(2), x(9)), coverage 1 - 22/1024
        Stats.Interval ci = Stats.medianConfidenceInterval(ONE_TO_TEN, 0.95);
        assertThat(ci.estimate()).isEqualTo(5.5);
        assertThat(ci.low()).isEqualTo(2);
        assertThat(ci.high()).isEqualTo(9);
        assertThat(ci.coverage()).isCloseTo(1 - 22.0 / 1024, within(1e-12));

        // n = 20: the published table gives ranks 6 and 15, coverage 1 - 2 * 0.020695 = 0.958611
        double[] twenty = new double[20];
        for (int i = 0; i < 20; i++) {
            twenty[i] = 100 + i;
        }
        Stats.Interval ci20 = Stats.medianConfidenceInterval(twenty, 0.95);
        assertThat(ci20.low()).isEqualTo(105);
        assertThat(ci20.high()).isEqualTo(114);
        assertThat(ci20.coverage()).isCloseTo(0.958611, within(1e-6));

        // n = 5 cannot reach 95%: the full range, coverage 1 - 2/32
        Stats.Interval ci5 = Stats.medianConfidenceInterval(new double[]{5, 1, 4, 2, 3}, 0.95);
        assertThat(ci5.low()).isEqualTo(1);
        assertThat(ci5.high()).isEqualTo(5);
        assertThat(ci5.coverage()).isCloseTo(0.9375, within(1e-12));
    }

    @Test
    void cohensDWithPooledStandardDeviation() {
        // means 3 and 5, both SDs sqrt(2.5): d = -2 / 1.5811 = -1.2649
        double d = Stats.cohensD(new double[]{1, 2, 3, 4, 5}, new double[]{3, 4, 5, 6, 7});
        assertThat(d).isCloseTo(-2 / Math.sqrt(2.5), within(1e-12));
        // unequal sizes: x = {2, 4, 6} (var 4), y = {1, 2, 3, 4, 5} (var 2.5):
        // pooled = sqrt((2*4 + 4*2.5) / 6) = sqrt(3); d = (4 - 3) / sqrt(3)
        assertThat(Stats.cohensD(new double[]{2, 4, 6}, new double[]{1, 2, 3, 4, 5}))
                .isCloseTo(1 / Math.sqrt(3), within(1e-12));
        assertThat(Stats.cohensD(new double[]{1, 1}, new double[]{1, 1})).isZero();
        assertThat(Stats.cohensD(new double[]{2, 2}, new double[]{1, 1})).isInfinite();
    }

    @Test
    void tukeyFences() {
        // Q1 = 3.25, Q3 = 7.75, IQR = 4.5: fences -3.5 and 14.5
        double[] x = {1, 2, 3, 4, 5, 6, 7, 8, 9, 100};
        assertThat(Stats.tukeyOutliers(x, 1.5)).containsExactly(9);
        assertThat(Stats.tukeyOutliers(ONE_TO_TEN, 1.5)).isEmpty();
        assertThat(Stats.tukeyOutliers(new double[]{1, 2, 1000}, 1.5)).isEmpty(); // too few to judge
        assertThat(Stats.tukeyOutliers(new double[]{-50, 10, 11, 12, 13, 14}, 1.5)).isEqualTo(List.of(0));
    }

    @Test
    void rejectsEmptyAndNaN() {
        assertThatThrownBy(() -> Stats.median(new double[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Stats.mean(new double[]{1, Double.NaN})).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Stats.quantile(new double[]{1}, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void type7QuantilesAsR() {
        double[] x = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
        // R: quantile(1:10, c(.25, .5, .75, .9)) -> 3.25 5.50 7.75 9.10
        assertThat(Stats.quantile(x, 0.25)).isCloseTo(3.25, within(1e-12));
        assertThat(Stats.quantile(x, 0.5)).isCloseTo(5.5, within(1e-12));
        assertThat(Stats.quantile(x, 0.75)).isCloseTo(7.75, within(1e-12));
        assertThat(Stats.quantile(x, 0.9)).isCloseTo(9.1, within(1e-12));
        assertThat(Stats.quantile(x, 0)).isEqualTo(1);
        assertThat(Stats.quantile(x, 1)).isEqualTo(10);
        assertThat(Stats.quantile(new double[] {42}, 0.5)).isEqualTo(42);
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(Stats.quantileSorted(sorted, 0.25)).isCloseTo(3.25, within(1e-12));
        assertThatThrownBy(() -> Stats.quantile(new double[0], 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Stats.quantile(x, 1.5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void confidenceIntervalUsesStudentsTAndTendsToTheNormal() {
        // R: qt(0.975, 1) = 12.7062, qt(0.975, 29) = 2.04523, qnorm(0.975) = 1.959964
        assertThat(Stats.ciHalfWidth(1, 2, 0.95)).isCloseTo(12.7062 / Math.sqrt(2), within(1e-4));
        assertThat(Stats.ciHalfWidth(1, 30, 0.95)).isCloseTo(2.04523 / Math.sqrt(30), within(1e-5));
        assertThat(Stats.ciHalfWidth(1, 1_000_000, 0.95)).isCloseTo(1.959964 / 1000, within(1e-6));
        assertThat(Stats.ciHalfWidth(1, 1, 0.95)).isZero();
    }

    @Test
    void differenceOfMeansCombinesTheIntervals() {
        double[] d = Stats.meanDifference(130, 3, 100, 4);
        assertThat(d[0]).isEqualTo(30);
        assertThat(d[1]).isEqualTo(5);
    }
}
