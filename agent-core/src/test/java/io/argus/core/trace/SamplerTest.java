package io.argus.core.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SamplerTest {

    private static final int DRAWS = 200_000;

    @Test
    void zeroNeverSamples() {
        Sampler sampler = new Sampler(0);
        for (int i = 0; i < DRAWS; i++) {
            assertThat(sampler.sampleRoot()).isFalse();
        }
    }

    @Test
    void hundredAlwaysSamples() {
        Sampler sampler = new Sampler(100);
        for (int i = 0; i < DRAWS; i++) {
            assertThat(sampler.sampleRoot()).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 1, 10, 25, 50, 99.5})
    void fractionalRatesSampleTheirShare(double percent) {
        Sampler sampler = new Sampler(percent);
        int sampled = 0;
        for (int i = 0; i < DRAWS; i++) {
            if (sampler.sampleRoot()) {
                sampled++;
            }
        }
        double p = percent / 100;
        double sigma = Math.sqrt(p * (1 - p) / DRAWS);
        assertThat((double) sampled / DRAWS).isCloseTo(p, within(5 * sigma));
    }
}
