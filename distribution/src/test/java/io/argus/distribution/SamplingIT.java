package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** At 0% nothing is traced but every request is still measured. */
class SamplingIT {

    private static final int N = 30;

    @Test
    void zeroPercentStoresNoTracesButAllMetrics() throws Exception {
        try (TestCollector collector = TestCollector.start();
             SampleCluster cluster = SampleCluster.start(System.getProperty("java.home"), "sampling-0",
                     app -> app.collector(collector.ingestPort()).samplingRate(0))) {
            for (int i = 0; i < N; i++) {
                assertThat(cluster.get("/front/call")).isEqualTo(200);
            }
            CollectorClient api = collector.client();
            JsonNode metric = CollectorClient.await("front metrics", Duration.ofSeconds(30),
                    () -> api.serverMetric("front", "GET", "/front/call"), m -> m.path("count").asLong() >= N);
            assertThat(metric.path("count").asLong()).isEqualTo(N);
            JsonNode back = CollectorClient.await("back metrics", Duration.ofSeconds(30),
                    () -> api.serverMetric("back", "GET", "/back/hello"), m -> m.path("count").asLong() >= N);
            assertThat(back.path("count").asLong()).isEqualTo(N);
            // metrics of the same interval have landed, so spans (flushed every 20 ms) would have too
            Thread.sleep(1500);
            assertThat(api.traces("front", 100)).isEmpty();
            assertThat(api.traces("back", 100)).isEmpty();
        }
    }
}
