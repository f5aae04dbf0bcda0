package io.argus.perf.harness.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SummaryTest {

    @Test
    void meanSdAndConfidenceIntervalOfAKnownSample() {
        double[] x = {2, 4, 4, 4, 5, 5, 7, 9};
        Summary s = Summary.of(x);
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
    void oneValueHasNoSpread() {
        Summary one = Summary.of(new double[] {3});
        assertThat(one.ci95).isZero();
        assertThat(one.sd).isZero();
        assertThat(one.median).isEqualTo(3);
    }
}
