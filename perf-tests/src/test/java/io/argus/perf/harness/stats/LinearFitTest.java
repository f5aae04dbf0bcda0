package io.argus.perf.harness.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LinearFitTest {

    @Test
    void linearFitWithAndWithoutNoise() {
        LinearFit exact = LinearFit.of(new double[] {1, 2, 4, 8, 16, 32}, new double[] {3, 5, 9, 17, 33, 65});
        assertThat(exact.slope).isCloseTo(2, within(1e-12));
        assertThat(exact.intercept).isCloseTo(1, within(1e-12));
        assertThat(exact.r2).isCloseTo(1, within(1e-12));
        assertThat(exact.at(10)).isCloseTo(21, within(1e-12));
        // hand-computed: slope 6/10, intercept 4 - 0.6 * 3, SSres 2.4, SStot 6
        LinearFit noisy = LinearFit.of(new double[] {1, 2, 3, 4, 5}, new double[] {2, 4, 5, 4, 5});
        assertThat(noisy.slope).isCloseTo(0.6, within(1e-12));
        assertThat(noisy.intercept).isCloseTo(2.2, within(1e-12));
        assertThat(noisy.r2).isCloseTo(0.6, within(1e-12));
        assertThat(noisy.n).isEqualTo(5);
        assertThatThrownBy(() -> LinearFit.of(new double[] {1, 1}, new double[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LinearFit.of(new double[] {1}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
