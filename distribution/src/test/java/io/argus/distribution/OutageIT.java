package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A dead collector costs the application nothing; the agent drops, counts, and reconnects. */
class OutageIT {

    private static final int QUEUE = 64;
    private static final int DURING_OUTAGE = 300;

    @Test
    void applicationIsUnaffectedAndDataFlowsAgainWhenCollectorReturns() throws Exception {
        int ingestPort = TestCollector.freePort();
        try (SampleCluster cluster = SampleCluster.start(System.getProperty("java.home"), "outage",
                app -> app.collector(ingestPort).samplingRate(100)
                        .agent("argus.exporter.queueSize", QUEUE)
                        .agent("argus.exporter.maxBackoff", "1s"))) {
            for (int i = 0; i < DURING_OUTAGE; i++) {
                assertThat(cluster.get("/front/call")).isEqualTo(200);
            }
            assertThat(cluster.front.output()).contains("unavailable").contains("dropping data");

            try (TestCollector collector = TestCollector.start(Files.createTempDirectory("argus-outage"), ingestPort)) {
                CollectorClient api = collector.client();
                CollectorClient.await("front reconnects", Duration.ofSeconds(30), api::agents,
                        agents -> agents.toString().contains("front"));
                for (int i = 0; i < 5; i++) {
                    assertThat(cluster.get("/front/call")).isEqualTo(200);
                }
                JsonNode traces = CollectorClient.await("traces after the outage", Duration.ofSeconds(30),
                        () -> api.traces("front", 100), t -> t.size() >= 5);
                assertThat(traces.size()).isGreaterThanOrEqualTo(5);

                // Spans made while the collector was down exceeded the bounded queue: the rest were dropped and counted.
                JsonNode front = CollectorClient.await("front heartbeat with drops", Duration.ofSeconds(30),
                        () -> agent(api.agents(), "front"), a -> droppedSpans(a) > 0);
                assertThat(droppedSpans(front)).isGreaterThanOrEqualTo(2L * DURING_OUTAGE - QUEUE);
            }
        }
    }

    private static JsonNode agent(JsonNode agents, String service) {
        for (JsonNode agent : agents) {
            if (service.equals(agent.path("service").asText())) {
                return agent;
            }
        }
        return null;
    }

    private static long droppedSpans(JsonNode agent) {
        JsonNode value = agent.findValue("droppedSpans");
        return value == null ? -1 : value.asLong();
    }
}
