package io.argus.plugin.jvm;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JvmPluginIT {

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void reportsMemoryGcThreadsCpuClassesAndUptime(String javaHome) {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = AgentApp.builder(IdleApp.class.getName()).javaHome(javaHome)
                     .collector(collector.ingestPort()).service("idle").start()) {
            app.awaitLine("READY", Duration.ofSeconds(30));
            JsonNode jvm = CollectorClient.await("two JVM samples", Duration.ofSeconds(30),
                    () -> collector.client().jvmMetrics("idle"),
                    j -> j.path("instances").size() == 1
                            && j.path("instances").get(0).path("series").path("jvm.uptime_ms").size() >= 2);
            JsonNode instance = jvm.path("instances").get(0);
            JsonNode latest = instance.path("latest");
            assertThat(latest.path("jvm.heap.used").asDouble()).isPositive();
            assertThat(latest.path("jvm.heap.committed").asDouble()).isGreaterThanOrEqualTo(latest.path("jvm.heap.used").asDouble());
            assertThat(latest.path("jvm.nonheap.used").asDouble()).isPositive();
            assertThat(latest.path("jvm.threads.live").asDouble()).isGreaterThanOrEqualTo(2);
            assertThat(latest.path("jvm.classes.loaded").asDouble()).isGreaterThan(100);
            assertThat(latest.path("jvm.cpu.process_time_ms").asDouble()).isPositive();
            // the forked JVM runs the serial collector, which the app triggers explicitly
            assertThat(latest.path("jvm.gc.MarkSweepCompact.count").asDouble()).isPositive();
            JsonNode uptime = instance.path("series").path("jvm.uptime_ms");
            assertThat(uptime.get(uptime.size() - 1).get(1).asDouble()).isGreaterThan(uptime.get(0).get(1).asDouble());
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void switchedOffReportsNoJvmGauges(String javaHome) throws Exception {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = AgentApp.builder(IdleApp.class.getName()).javaHome(javaHome)
                     .collector(collector.ingestPort()).service("idle")
                     .agent("argus.plugin.jvm.enabled", "false").start()) {
            app.awaitLine("READY", Duration.ofSeconds(30));
            JsonNode jvm = CollectorClient.await("agent gauges", Duration.ofSeconds(30),
                    () -> collector.client().jvmMetrics("idle"),
                    j -> j.path("instances").size() == 1 && j.path("instances").get(0).path("latest").has("agent.spans.sent"));
            assertThat(jvm.path("instances").get(0).path("latest").has("jvm.heap.used")).isFalse();
            assertThat(app.output()).doesNotContainPattern("plugins=\\[.*jvm");
        }
    }
}
