package io.argus.perf.load.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NonInferiorityTest {

    private static final Anchors.Limit AT_MOST = Anchors.Limit.ratioAtMost(1.10);
    private static final Anchors.Limit AT_LEAST = Anchors.Limit.ratioAtLeast(0.99);

    @Test
    void aLimitFromAbove() {
        assertThat(NonInferiority.decide(AT_MOST, 1.01, 1.09)).isEqualTo("PASS");
        assertThat(NonInferiority.decide(AT_MOST, 1.01, 1.10)).as("touching the target still passes").isEqualTo("PASS");
        assertThat(NonInferiority.decide(AT_MOST, 1.05, 1.12)).isEqualTo("INCONCLUSIVE");
        assertThat(NonInferiority.decide(AT_MOST, 1.10, 1.30)).as("not wholly beyond").isEqualTo("INCONCLUSIVE");
        assertThat(NonInferiority.decide(AT_MOST, 1.11, 1.30)).isEqualTo("FAIL");
    }

    @Test
    void aLimitFromBelow() {
        assertThat(NonInferiority.decide(AT_LEAST, 0.99, 1.02)).isEqualTo("PASS");
        assertThat(NonInferiority.decide(AT_LEAST, 0.97, 1.02)).isEqualTo("INCONCLUSIVE");
        assertThat(NonInferiority.decide(AT_LEAST, 0.90, 0.98)).isEqualTo("FAIL");
        assertThat(NonInferiority.decide(AT_LEAST, Double.NaN, 1.0)).isEqualTo("INCONCLUSIVE");
    }

    @Test
    void differencesAndValuesAreLimitsFromAbove() {
        Anchors.Limit us = new Anchors.Limit(Anchors.Kind.DIFFERENCE_AT_MOST, 15, "µs");
        assertThat(NonInferiority.decide(us, 3, 14)).isEqualTo("PASS");
        assertThat(NonInferiority.decide(us, 16, 40)).isEqualTo("FAIL");
        Anchors.Limit span = new Anchors.Limit(Anchors.Kind.VALUE_AT_MOST, 5, "µs");
        assertThat(NonInferiority.decide(span, 8, 9)).isEqualTo("FAIL");
    }

    /**
     * Two samples of 10 with a pooled SD of 2 µs, the estimate 1 µs from the target: n = 2 ((1.95996 + 0.84162)
     * sqrt(π/3) 2 / 1)² = 2 · 32.87 = 65.7, so 66 a side.
     */
    @Test
    void samplesToDecideFollowTheSpreadAndTheDistance() {
        Anchors.Limit us = new Anchors.Limit(Anchors.Kind.DIFFERENCE_AT_MOST, 15, "µs");
        double[] x = spread(10, 100, 2);
        double[] y = spread(10, 86, 2);
        assertThat(NonInferiority.samplesToDecide(us, x, y, 14)).isEqualTo(66);
        // four times the distance: a sixteenth of the samples, but never fewer than one more than there are
        assertThat(NonInferiority.samplesToDecide(us, x, y, 11)).isEqualTo(11);
        assertThat(NonInferiority.samplesToDecide(us, x, y, 15)).as("on the target").isNull();
    }

    @Test
    void oneSampleAgainstAValueOfItsOwn() {
        Anchors.Limit span = new Anchors.Limit(Anchors.Kind.VALUE_AT_MOST, 5, "µs");
        // n = ((1.95996 + 0.84162) sqrt(π/2) 2 / 1)² = 49.3 -> 50
        assertThat(NonInferiority.samplesToDecide(span, spread(10, 6, 2), 6)).isEqualTo(50);
        assertThat(NonInferiority.minimumOneSample()).isEqualTo(6);
    }

    /** n values with the given mean and a sample standard deviation of exactly {@code sd}. */
    private static double[] spread(int n, double mean, double sd) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = i % 2 == 0 ? -1 : 1;
        }
        // ±1 alternating has sample variance n / (n - 1)
        double scale = sd / Math.sqrt(n / (n - 1.0));
        for (int i = 0; i < n; i++) {
            x[i] = mean + x[i] * scale;
        }
        return x;
    }
}
