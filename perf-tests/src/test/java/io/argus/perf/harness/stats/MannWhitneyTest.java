package io.argus.perf.harness.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MannWhitneyTest {

    /**
     * The example of R's wilcox.test documentation (Hollander and Wolfe, p. 69): permeability
     * constants at 12-26 weeks (x) and at term (y). R: W = 35, one-sided p ("greater") = 0.1272,
     * so the exact two-sided p is 2 * 382/3003 = 0.2544.
     */
    @Test
    void publishedExampleExact() {
        double[] x = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
        double[] y = {1.15, 0.88, 0.90, 0.74, 1.21};
        MannWhitney.Result r = MannWhitney.test(x, y);
        assertThat(r.u()).isEqualTo(35);
        assertThat(r.method()).isEqualTo("exact");
        assertThat(r.pValue()).isCloseTo(2 * 382.0 / 3003, within(1e-12));
        assertThat(r.pValue()).isCloseTo(0.2544, within(1e-4));
        // symmetric: U for y is 50 - 35, same p
        MannWhitney.Result swapped = MannWhitney.test(y, x);
        assertThat(swapped.u()).isEqualTo(15);
        assertThat(swapped.pValue()).isCloseTo(r.pValue(), within(1e-12));
    }

    @Test
    void completeSeparationOfThreeAgainstThree() {
        // only 1 of C(6, 3) = 20 arrangements has U = 0, and one has U = 9: p = 2/20
        MannWhitney.Result r = MannWhitney.test(new double[]{1, 2, 3}, new double[]{4, 5, 6});
        assertThat(r.u()).isZero();
        assertThat(r.pValue()).isCloseTo(0.1, within(1e-12));
        // two against two, the best a quick run can do: p = 2/6
        assertThat(MannWhitney.test(new double[]{10, 11}, new double[]{1, 2}).pValue()).isCloseTo(1 / 3.0, within(1e-12));
    }

    /**
     * With ties: x = {1, 2, 2, 3}, y = {2, 3, 4, 5}. Mid-ranks of x: 1, 3, 3, 5.5 (sum 12.5), so
     * U = 12.5 - 10 = 2.5. Tie term Σ(t³ - t) = 24 + 6 = 30; var = 16/12 (9 - 30/56) = 11.2857;
     * z = (2.5 - 8 + 0.5) / sqrt(11.2857) = -1.48835; p = 2 Φ(-1.48835) = 0.136658 (R:
     * wilcox.test(x, y, exact = FALSE) gives the same).
     */
    @Test
    void tiesUseTheCorrectedNormalApproximation() {
        MannWhitney.Result r = MannWhitney.test(new double[]{1, 2, 2, 3}, new double[]{2, 3, 4, 5});
        assertThat(r.u()).isEqualTo(2.5);
        assertThat(r.method()).isEqualTo("normal");
        assertThat(r.pValue()).isCloseTo(0.136658, within(1e-6));
    }

    @Test
    void identicalSamplesGiveOne() {
        MannWhitney.Result r = MannWhitney.test(new double[]{1, 1, 1}, new double[]{1, 1, 1});
        assertThat(r.pValue()).isEqualTo(1.0);
    }

    @Test
    void exactDistributionCountsEveryArrangement() {
        double[] f = MannWhitney.exactDistribution(10, 5);
        double total = 0;
        for (double c : f) {
            total += c;
        }
        assertThat(total).isEqualTo(3003); // C(15, 5)
        assertThat(f).hasSize(51);
        assertThat(f[0]).isEqualTo(1);
        for (int u = 0; u <= 50; u++) {
            assertThat(f[u]).isEqualTo(f[50 - u]);
        }
    }

    @Test
    void largeSamplesWithoutTiesUseTheNormalApproximation() {
        double[] x = new double[60];
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            x[i] = i * 2 + 0.5;
            y[i] = i * 2 + 1.0;
        }
        MannWhitney.Result r = MannWhitney.test(x, y);
        assertThat(r.method()).isEqualTo("normal");
        assertThat(r.pValue()).isGreaterThan(0.5);
    }

    @Test
    void midRanks() {
        assertThat(MannWhitney.ranks(new double[]{10, 20, 20, 30})).containsExactly(1, 2.5, 2.5, 4);
        assertThat(MannWhitney.tieTerm(new double[]{1, 2, 2, 2, 3, 3})).isEqualTo(24 + 6);
    }
}
