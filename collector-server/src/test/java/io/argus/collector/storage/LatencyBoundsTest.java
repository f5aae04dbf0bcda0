package io.argus.collector.storage;

import io.argus.core.metrics.LatencyBuckets;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The collector's histogram bounds are the agent's: the Druid rollup and OTLP bucketing add buckets by index. */
class LatencyBoundsTest {

    @Test
    void theCollectorsBoundsAreTheAgents() {
        long[] agent = new long[LatencyBuckets.boundCount()];
        for (int i = 0; i < agent.length; i++) {
            agent[i] = LatencyBuckets.bound(i);
        }
        assertThat(LatencyBounds.standardNanos()).containsExactly(agent);
        assertThat(LatencyBuckets.count()).isEqualTo(agent.length + 1);
    }
}
