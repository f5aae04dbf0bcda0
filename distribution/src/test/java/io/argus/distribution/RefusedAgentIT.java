package io.argus.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.ingest.RejectReason;
import io.argus.testing.AgentApp;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An agent with the wrong {@code argus.collector.token}: the collector tells it why in the protocol, the agent says
 * so once, as an ERROR naming the key, and backs off as for an outage instead of reconnecting every half second; the
 * application is unaffected.
 */
class RefusedAgentIT {
    static final Duration WATCH = Duration.ofSeconds(10);

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void wrongTokenIsLoggedOnceAndTheAgentBacksOff(String javaHome) throws Exception {
        try (Collector collector = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(0)
                .dataDir(Files.createTempDirectory("argus-refused")).token("the-right-one").build())) {
            Map.Entry<AgentApp, Integer> solo = SampleCluster.startService(javaHome,
                    "refused", app -> app.collector(collector.ingestPort()).samplingRate(100)
                            .agent("argus.collector.token", "a-wrong-one"),
                    "--name", "solo", "--port", "0");
            try (AgentApp app = solo.getKey()) {
                long start = System.nanoTime();
                while (System.nanoTime() - start < WATCH.toNanos()) {
                    assertThat(SampleCluster.get(solo.getValue(), "/solo/hello")).isEqualTo(200);
                    Thread.sleep(200);
                }
                double attempts = collector.ingestMetrics().rejectedCount(RejectReason.BAD_TOKEN);
                List<String> agentLines = app.lines().stream().filter(l -> l.startsWith("[argus]"))
                        .collect(Collectors.toList());
                List<String> errors = agentLines.stream().filter(l -> l.startsWith("[argus] ERROR"))
                        .collect(Collectors.toList());
                assertThat(errors).as("agent ERROR lines: " + agentLines).hasSize(1);
                assertThat(errors.get(0)).contains("argus.collector.token").contains("refused");
                assertThat(agentLines).as("no flapping between down and up").noneMatch(l -> l.contains("reachable"
                        + " again"));
                assertThat(agentLines.stream().filter(l -> l.contains("unavailable")).count()).isLessThanOrEqualTo(1);
                // back-off from 0.5 s doubling: attempts at about 0, 0.5, 1.5, 3.5, 7.5 s (the start-up adds a little)
                assertThat(attempts).as("connection attempts in " + WATCH).isBetween(2.0, 7.0);
            }
        }
    }
}
