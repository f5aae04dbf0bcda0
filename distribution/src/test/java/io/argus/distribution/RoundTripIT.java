package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Paths;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole product: front and back JVMs with the assembled agent at 100% sampling, a real
 * collector, and N calls to /front/call. Runs on every JDK of {@link AgentApp#javaHomes()}.
 */
class RoundTripIT {

    private static final int N = 20;
    private static final Duration WAIT = Duration.ofSeconds(30);

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void traceCrossesBothServicesAndMetricsCountEveryRequest(String javaHome) {
        String jdk = Paths.get(javaHome).getFileName().toString();
        try (TestCollector collector = TestCollector.start();
             SampleCluster cluster = SampleCluster.start(javaHome, "roundtrip-" + jdk,
                     app -> app.collector(collector.ingestPort()).samplingRate(100))) {
            for (int i = 0; i < N; i++) {
                assertThat(cluster.get("/front/call")).isEqualTo(200);
            }
            CollectorClient api = collector.client();

            JsonNode traces = CollectorClient.await("front traces", WAIT,
                    () -> api.traces("front", 100), t -> t.size() >= N && allHaveSpans(t, 3));
            assertThat(traces).hasSize(N);
            for (JsonNode summary : traces) {
                assertThat(summary.path("rootName").asText()).isEqualTo("GET /front/call");
                assertTraceShape(api.trace(summary.path("traceId").asText()));
            }

            JsonNode frontCall = CollectorClient.await("front /front/call metrics", WAIT,
                    () -> api.serverMetric("front", "GET", "/front/call"), m -> m.path("count").asLong() >= N);
            assertThat(frontCall.path("count").asLong()).isEqualTo(N);
            assertThat(frontCall.path("status").asInt()).isEqualTo(200);
            assertThat(frontCall.path("errors").asLong()).isZero();
            assertThat(frontCall.path("p99Ms").asDouble()).isGreaterThanOrEqualTo(frontCall.path("p95Ms").asDouble());
            JsonNode backHello = CollectorClient.await("back /back/hello metrics", WAIT,
                    () -> api.serverMetric("back", "GET", "/back/hello"), m -> m.path("count").asLong() >= N);
            assertThat(backHello.path("count").asLong()).isEqualTo(N);

            JsonNode jvm = CollectorClient.await("front JVM metrics", WAIT, () -> api.jvmMetrics("front"),
                    j -> j.path("instances").size() > 0
                            && j.path("instances").get(0).path("latest").has("jvm.heap.used"));
            JsonNode latest = jvm.path("instances").get(0).path("latest");
            assertThat(latest.path("jvm.heap.used").asDouble()).isPositive();
            assertThat(latest.path("jvm.threads.live").asDouble()).isPositive();
            assertThat(latest.path("jvm.classes.loaded").asDouble()).isPositive();
            assertThat(latest.has("jvm.uptime_ms")).isTrue();

            // no sun.misc.Unsafe warnings (JDK 24+), and class-data sharing stays on (bridge defined, not appended)
            assertThat(cluster.front.output()).contains("[argus] Argus").doesNotContain("WARNING: A terminally deprecated")
                    .doesNotContain("Sharing is only supported for boot loader classes");
        }
    }

    private static boolean allHaveSpans(JsonNode traces, int spans) {
        return StreamSupport.stream(traces.spliterator(), false).allMatch(t -> t.path("spanCount").asInt() >= spans);
    }

    /** front SERVER (root) -> front CLIENT -> back SERVER, all in one trace. */
    private static void assertTraceShape(JsonNode trace) {
        JsonNode spans = trace.path("spans");
        assertThat(spans).hasSize(3);
        Map<String, JsonNode> byRole = new HashMap<>();
        for (JsonNode span : spans) {
            byRole.put(span.path("service").asText() + "/" + span.path("kind").asText(), span);
        }
        JsonNode frontServer = byRole.get("front/SERVER");
        JsonNode frontClient = byRole.get("front/CLIENT");
        JsonNode backServer = byRole.get("back/SERVER");
        assertThat(frontServer).as("front server span in %s", trace).isNotNull();
        assertThat(frontClient).as("front client span in %s", trace).isNotNull();
        assertThat(backServer).as("back server span in %s", trace).isNotNull();
        assertThat(frontServer.path("parentSpanId").isNull()).isTrue();
        assertThat(frontClient.path("parentSpanId").asText()).isEqualTo(frontServer.path("spanId").asText());
        assertThat(backServer.path("parentSpanId").asText()).isEqualTo(frontClient.path("spanId").asText());
        assertThat(backServer.path("name").asText()).isEqualTo("GET /back/hello");
        assertThat(frontServer.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(frontClient.path("tags").path("http.method").asText()).isEqualTo("GET");
        assertThat(frontServer.path("durationNanos").asLong())
                .isGreaterThanOrEqualTo(frontClient.path("durationNanos").asLong());
        for (JsonNode span : spans) {
            assertThat(span.path("status").asText()).isEqualTo("OK");
        }
    }
}
