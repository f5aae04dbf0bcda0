package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * As a user starts a service: the sample services (Jetty 12, front calling back through the JDK's HTTP
 * client) with the agent's default settings, and requests sent as soon as each service first answers,
 * without waiting for any line of the agent's. Every request is traced end to end: each carries a sampled
 * {@code traceparent} of its own (the default sampling rate is 0%, and a sampled caller is honoured), and
 * each trace must reach the collector complete, from the first request on. Twice: on a first start, and on a
 * restart that defines the classes woven the first time from the class cache instead of weaving them again.
 */
class FirstRequestsIT {

    private static final int REQUESTS = 20;

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void everyRequestFromTheFirstIsTraced(String javaHome, @TempDir Path classCache) throws Exception {
        everyRequestIsTraced(javaHome, classCache, "cold");
        everyRequestIsTraced(javaHome, classCache, "warm");
    }

    private static void everyRequestIsTraced(String javaHome, Path classCache, String start) throws Exception {
        try (TestCollector collector = TestCollector.start();
             SampleCluster cluster = SampleCluster.start(javaHome, "first-requests-" + jdk(javaHome) + "-" + start,
                     app -> app.collector(collector.ingestPort()).agent("argus.startup.classCacheDir", classCache))) {
            List<String> traceIds = new ArrayList<>();
            long firstSentMs = System.currentTimeMillis();
            for (int i = 0; i < REQUESTS; i++) {
                String traceId = SampledRequests.traceId();
                assertThat(SampledRequests.get(cluster.frontPort, "/front/call", traceId)).as("request %d", i).isEqualTo(200);
                traceIds.add(traceId);
            }
            CollectorClient api = collector.client();
            for (int i = 0; i < REQUESTS; i++) {
                String traceId = traceIds.get(i);
                JsonNode trace = CollectorClient.await("trace of request " + i, Duration.ofSeconds(30),
                        () -> api.trace(traceId), t -> t.path("spans").size() == 3);
                List<String> spans = new ArrayList<>();
                trace.path("spans").forEach(s -> spans.add(s.path("service").asText() + " " + s.path("kind").asText()));
                assertThat(spans).as("request %d", i).containsExactlyInAnyOrder("front SERVER", "front CLIENT", "back SERVER");
            }
            for (AgentApp app : List.of(cluster.front, cluster.back)) {
                assertThat(app.lines()).noneMatch(line -> line.contains("without its probes"));
            }
            // back starts first; front, the same application, may find back's classes kept already
            AgentApp startsFirst = start.equals("cold") ? cluster.back : cluster.front;
            // on a restart the start line comes once the engine is built, which may be after the requests above
            startsFirst.awaitLine(".*, classCache=" + start + ",.*", Duration.ofSeconds(60));
            if (start.equals("warm")) {
                // the woven classes came from the cache: Jetty's, and the JDK's executors at least
                JsonNode gauges = CollectorClient.await("the agents' class cache gauge", Duration.ofSeconds(30),
                        () -> api.jvmMetrics("back").path("instances"),
                        i -> i.size() == 1 && i.get(0).path("latest").path("agent.classes.fromCache").asInt() >= 4);
                assertThat(gauges.get(0).path("latest").path("agent.classes.fromCache").asInt()).isGreaterThanOrEqualTo(4);
                // Jetty's Server loads a few milliseconds into main, well before the engine is ready: the cache
                // defined it at once, and the requests above, traced, show its advice waited for the recorders
                assertThat(gauges.get(0).path("latest").path("agent.classes.fromCacheBeforeReady").asInt())
                        .as("classes defined from the cache before the engine was ready").isGreaterThanOrEqualTo(1);
            }
            // the agents say how they started and since when they observe: before the first request
            for (JsonNode agent : api.agents()) {
                assertThat(agent.path("startupMode").asText()).isEqualTo("parallel");
                assertThat(agent.path("observingSinceMs").asLong()).isPositive().isLessThanOrEqualTo(firstSentMs);
            }
            assertThat(api.agents()).hasSize(2);
        }
    }

    private static String jdk(String javaHome) {
        return javaHome.contains("25") ? "jdk25" : "jdk17";
    }
}
