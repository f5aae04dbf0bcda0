package io.argus.collector.storage.druid;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DruidStorageTest {

    @Test
    void redStepsAreWholeMinutesBecauseCallsRollUpPerMinute() {
        assertThat(DruidStorage.rollupStep(1)).isEqualTo(60_000);
        assertThat(DruidStorage.rollupStep(30_000)).isEqualTo(60_000);
        assertThat(DruidStorage.rollupStep(60_000)).isEqualTo(60_000);
        assertThat(DruidStorage.rollupStep(90_000)).isEqualTo(120_000);
        assertThat(DruidStorage.rollupStep(3_600_000)).isEqualTo(3_600_000);
    }
}
