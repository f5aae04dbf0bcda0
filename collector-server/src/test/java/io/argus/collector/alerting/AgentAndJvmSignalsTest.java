package io.argus.collector.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.Gauge;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The signals read from the agent list and the JVM series, on an embedded collector fed by a protocol-level agent:
 * an agent that goes silent, dropped spans reported in heartbeats, and a JVM gauge over its bound.
 */
class AgentAndJvmSignalsTest {
    @TempDir
    Path dir;

    static String state(Api api, String rule) {
        for (JsonNode a : api.json("/api/alerts")) {
            if (a.get("rule").asText().equals(rule)) {
                return a.get("state").asText();
            }
        }
        throw new AssertionError("no alert " + rule);
    }

    @Test
    void silentAgentDroppedSpansAndAJvmGauge() throws Exception {
        Path rules = Files.writeString(dir.resolve("rules.yaml"), """
                evaluation_interval: 1s
                rules:
                  - name: inventory silent
                    service: inventory
                    signal: agent_silent
                    above: 3s
                  - name: inventory drops
                    service: inventory
                    signal: dropped_spans
                    above: 10
                    window: 30s
                  - name: inventory heap
                    service: inventory
                    instance: inv-1
                    signal: jvm_gauge
                    gauge: jvm.heap.used
                    above: 1000000
                """);
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(dir.resolve("data"))
                .alertRules(rules).build());
             TestAgent agent = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            long now = System.currentTimeMillis();
            agent.hello("inventory", "inv-1");
            agent.heartbeat(Heartbeat.newBuilder().setTimestampMs(now).setDroppedSpans(100).build());
            agent.metrics(MetricBatch.newBuilder().setTimestampMs(now)
                    .addJvm(Gauge.newBuilder().setName("jvm.heap.used").setValue(500_000)).build());
            api.await("/api/alerts", a -> a.size() == 3 && a.findValues("evaluatedAtMs").stream()
                    .allMatch(v -> v.asLong() > now));
            // a running total of 100 at the first look is not 100 dropped in the window
            assertThat(state(api, "inventory drops")).isEqualTo("inactive");
            assertThat(state(api, "inventory heap")).isEqualTo("inactive");

            agent.heartbeat(Heartbeat.newBuilder().setTimestampMs(System.currentTimeMillis())
                    .setDroppedSpans(125).build());
            agent.metrics(MetricBatch.newBuilder().setTimestampMs(System.currentTimeMillis())
                    .addJvm(Gauge.newBuilder().setName("jvm.heap.used").setValue(2_000_000)).build());
            long lastHeardFrom = System.currentTimeMillis();
            api.await("/api/alerts", a -> state(api, "inventory drops").equals("firing")
                    && state(api, "inventory heap").equals("firing"));
            JsonNode drops = api.json("/api/alerts/history?limit=10");
            assertThat(drops.findValuesAsText("rule")).contains("inventory drops", "inventory heap");

            // nothing more from the agent: silent after 3 s (counted from its last frame, not from this line)
            api.await("/api/alerts", a -> state(api, "inventory silent").equals("firing"));
            assertThat(System.currentTimeMillis() - lastHeardFrom).isGreaterThanOrEqualTo(2_000);
            agent.heartbeat(Heartbeat.newBuilder().setTimestampMs(System.currentTimeMillis())
                    .setDroppedSpans(125).build());
            api.await("/api/alerts", a -> state(api, "inventory silent").equals("resolved"));
        }
    }
}
