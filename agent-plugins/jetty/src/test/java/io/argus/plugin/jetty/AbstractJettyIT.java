package io.argus.plugin.jetty;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jetty plugin against one real Jetty version: a test application runs in a forked JVM with the
 * assembled agent (target/agent) and reports to a real collector in this JVM; every assertion reads
 * the collector's JSON API. Subclasses say which application and class path to run.
 */
abstract class AbstractJettyIT {

    static final int N = 5;
    static final long ASYNC_DELAY_MS = 200;
    static final Duration WAIT = Duration.ofSeconds(30);

    // inbound trace context: fresh ids per test, since all runs of a class share one collector
    final String w3cTrace = hex(32);
    final String w3cParent = hex(16);
    final String w3cSampled = "00-" + w3cTrace + "-" + w3cParent + "-01";
    final String w3cUnsampledTrace = hex(32);
    final String w3cUnsampled = "00-" + w3cUnsampledTrace + "-" + w3cParent + "-00";
    final String b3Trace = hex(32);
    final String b3Span = hex(16);
    final String b3MultiTrace = hex(32);
    final String b3MultiSpan = hex(16);

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static TestCollector collector;
    static CollectorClient api;

    @BeforeAll
    static void startCollector() {
        collector = TestCollector.start();
        api = collector.client();
    }

    @AfterAll
    static void stopCollector() {
        if (collector != null) {
            collector.close();
        }
    }

    /** A short name of the Jetty version under test, used in service names. */
    abstract String jetty();

    abstract String mainClass();

    /** The forked application's class path. */
    abstract String classpath();

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    // ---- 1, 2 (at 100%), 3, 5, 6: spans, metrics, propagation, async, isolation, on each JDK

    @ParameterizedTest(name = "{0}")
    @MethodSource("javaHomes")
    void recordsEveryRequestAt100Percent(String javaHome) throws Exception {
        String service = service("all", javaHome);
        try (AgentApp app = start(service, javaHome, 100).start()) {
            assertThat(pluginsLoaded(app)).isEqualTo("jetty");
            int port = readyPort(app);
            assertAgentInternalsHidden(app);

            // first: what must not be traced, so the spans awaited below prove its absence (FIFO export)
            assertThat(get(port, "/hello/unsampled", "traceparent", w3cUnsampled)).isEqualTo(200);
            for (int i = 0; i < N; i++) {
                assertThat(get(port, "/hello/basic?i=" + i)).isEqualTo(200);
            }
            assertThat(get(port, "/fail")).isEqualTo(500);
            assertThat(get(port, "/boom")).isEqualTo(500);
            assertThat(get(port, "/missing")).isEqualTo(404);
            assertThat(get(port, "/hello/malformed", "traceparent", "00-not-a-trace-id-01", "b3", "zz-yy-1")).isEqualTo(200);
            assertThat(get(port, "/hello/w3c", "traceparent", w3cSampled, "tracestate", "vendor=1")).isEqualTo(200);
            long asyncStart = System.nanoTime();
            assertThat(get(port, "/async")).isEqualTo(200);
            assertThat(System.nanoTime() - asyncStart).isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);

            Map<String, JsonNode> metrics = awaitServerMetrics(service, Map.of(
                    "GET /hello/basic 200", (long) N, "GET /fail 500", 1L, "GET /boom 500", 1L,
                    "GET /missing 404", 1L, "GET /hello/unsampled 200", 1L, "GET /hello/malformed 200", 1L,
                    "GET /hello/w3c 200", 1L, "GET /async 200", 1L));
            assertThat(metrics.get("GET /hello/basic 200").path("errors").asLong()).isZero();
            assertThat(metrics.get("GET /fail 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /boom 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /missing 404").path("errors").asLong()).isZero();
            assertThat(metrics.get("GET /async 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);

            List<JsonNode> traces = awaitTraces(service, 11);
            assertThat(rootNames(traces)).containsExactlyInAnyOrder(
                    "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic",
                    "GET /fail", "GET /boom", "GET /missing", "GET /hello/malformed", "GET /hello/w3c", "GET /async");
            for (JsonNode summary : traces) {
                JsonNode span = singleSpan(summary.path("traceId").asText());
                String name = summary.path("rootName").asText();
                int status = name.equals("GET /fail") || name.equals("GET /boom") ? 500 : name.equals("GET /missing") ? 404 : 200;
                assertServerSpan(span, name.substring(4), status);
                if (!name.equals("GET /hello/w3c")) {
                    assertThat(isRoot(span)).as("root span of %s", name).isTrue();
                }
            }
            assertThat(singleSpan(traceIdOf(traces, "GET /boom")).path("tags").path("error").asText())
                    .contains("IllegalStateException");
            JsonNode async = singleSpan(traceIdOf(traces, "GET /async"));
            assertThat(async.path("durationNanos").asLong()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);

            JsonNode joined = singleSpan(w3cTrace);
            assertThat(joined.path("name").asText()).isEqualTo("GET /hello/w3c");
            assertThat(joined.path("parentSpanId").asText()).isEqualTo(w3cParent);
            assertThat(traceIdOf(traces, "GET /hello/malformed")).isNotIn(w3cTrace, w3cUnsampledTrace);
            JsonNode unsampled = api.trace(w3cUnsampledTrace);
            assertThat(unsampled == null || unsampled.path("spans").isEmpty())
                    .as("no span of the unsampled inbound trace: %s", unsampled).isTrue();

            // nothing is counted twice: one more metrics flush changes no count
            awaitFlushAfter(service, System.currentTimeMillis());
            assertThat(counts(serverMetrics(service))).isEqualTo(counts(metrics));
            assertThat(api.traces(service, 100)).hasSize(11);
            assertThat(adviceErrors(service)).isZero();
        }
    }

    // ---- 2: inbound context is honoured at 0%

    @Test
    void joinsInboundSampledContextAtZeroPercent() throws Exception {
        String service = service("zero", System.getProperty("java.home"));
        try (AgentApp app = start(service, System.getProperty("java.home"), 0).start()) {
            int port = readyPort(app);
            for (int i = 0; i < 3; i++) {
                assertThat(get(port, "/hello/plain")).isEqualTo(200);
            }
            assertThat(get(port, "/async")).isEqualTo(200);
            assertThat(get(port, "/hello/w3c", "traceparent", w3cSampled)).isEqualTo(200);
            assertThat(get(port, "/hello/b3", "b3", b3Trace + "-" + b3Span + "-1")).isEqualTo(200);
            assertThat(get(port, "/hello/b3multi", "X-B3-TraceId", b3MultiTrace, "X-B3-SpanId", b3MultiSpan,
                    "X-B3-Sampled", "1")).isEqualTo(200);

            assertJoined(w3cTrace, w3cParent, "/hello/w3c");
            assertJoined(b3Trace, b3Span, "/hello/b3");
            assertJoined(b3MultiTrace, b3MultiSpan, "/hello/b3multi");
            Map<String, JsonNode> metrics = awaitServerMetrics(service, Map.of(
                    "GET /hello/plain 200", 3L, "GET /async 200", 1L, "GET /hello/w3c 200", 1L,
                    "GET /hello/b3 200", 1L, "GET /hello/b3multi 200", 1L));
            assertThat(metrics.get("GET /async 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);
            // the untraced requests went first, so their spans would be stored by now
            assertThat(rootNames(list(api.traces(service, 100))))
                    .containsExactlyInAnyOrder("GET /hello/w3c", "GET /hello/b3", "GET /hello/b3multi");
            assertThat(adviceErrors(service)).isZero();
        }
    }

    // ---- 4: switched off

    @Test
    void recordsNothingWhenDisabled() throws Exception {
        String service = service("off", System.getProperty("java.home"));
        try (AgentApp app = start(service, System.getProperty("java.home"), 100)
                .agent("argus.plugin.jetty.enabled", false).start()) {
            assertThat(pluginsLoaded(app)).isEmpty();
            int port = readyPort(app);
            for (int i = 0; i < N; i++) {
                assertThat(get(port, "/hello/basic")).isEqualTo(200);
            }
            assertThat(get(port, "/fail")).isEqualTo(500);
            assertThat(get(port, "/async")).isEqualTo(200);
            awaitFlushAfter(service, System.currentTimeMillis());
            assertThat(api.traces(service, 100)).isEmpty();
            assertThat(serverMetrics(service)).isEmpty();
        }
    }

    // ---- helpers: the application

    String service(String scenario, String javaHome) {
        String jdk = javaHome.equals(System.getProperty("java.home")) ? "jdk" + Runtime.version().feature()
                : Paths.get(javaHome).getFileName().toString();
        return "jetty-" + jetty() + "-" + scenario + "-" + jdk;
    }

    AgentApp.Builder start(String service, String javaHome, int samplingRate) {
        AgentApp.Builder builder = AgentApp.builder(mainClass())
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(samplingRate)
                .classpath(classpath());
        String logs = System.getProperty("argus.test.logs");
        if (logs != null) {
            builder.logTo(Paths.get(logs, service + ".log"));
        }
        return builder;
    }

    static int readyPort(AgentApp app) {
        return Integer.parseInt(app.awaitLine("READY port=(\\d+)", WAIT).group(1));
    }

    /** The agent's start-up line lists the plugins it loaded. */
    static String pluginsLoaded(AgentApp app) {
        return app.awaitLine("\\[argus\\] .*plugins=\\[([^\\]]*)\\]", WAIT).group(1);
    }

    static void assertAgentInternalsHidden(AgentApp app) {
        Matcher visibility = app.awaitLine("VISIBILITY bytebuddy=(\\w+) core=(\\w+) bridge=(\\w+)", WAIT);
        assertThat(visibility.group(1)).as("agent's ByteBuddy visible to the application").isEqualTo("false");
        assertThat(visibility.group(2)).as("agent core visible to the application").isEqualTo("false");
        assertThat(visibility.group(3)).as("bridge on the bootstrap path").isEqualTo("true");
    }

    static int get(int port, String pathAndQuery, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    static String jars(Path folder) {
        return folder.resolve("*").toString();
    }

    // ---- helpers: the collector

    /** Server metric rows of the service, keyed "METHOD target status". */
    static Map<String, JsonNode> serverMetrics(String service) {
        return list(api.httpMetrics(service)).stream()
                .filter(row -> row.path("kind").asText().equals("server"))
                .collect(Collectors.toMap(row -> row.path("method").asText() + " " + row.path("target").asText()
                        + " " + row.path("status").asInt(), row -> row));
    }

    static Map<String, Long> counts(Map<String, JsonNode> metrics) {
        return metrics.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().path("count").asLong()));
    }

    /** Waits until the server metrics are exactly {@code expected} (row key to count). */
    static Map<String, JsonNode> awaitServerMetrics(String service, Map<String, Long> expected) {
        return CollectorClient.await("server metrics " + expected, WAIT, () -> serverMetrics(service),
                rows -> counts(rows).equals(expected));
    }

    static List<JsonNode> awaitTraces(String service, int count) {
        return CollectorClient.await(count + " traces of " + service, WAIT,
                () -> list(api.traces(service, 100)), traces -> traces.size() >= count);
    }

    static List<String> rootNames(List<JsonNode> traces) {
        return traces.stream().map(t -> t.path("rootName").asText()).collect(Collectors.toList());
    }

    static String traceIdOf(List<JsonNode> traces, String rootName) {
        return traces.stream().filter(t -> t.path("rootName").asText().equals(rootName))
                .map(t -> t.path("traceId").asText()).findFirst().orElseThrow();
    }

    /** The only span of a trace, waiting for it to be stored. */
    static JsonNode singleSpan(String traceId) {
        JsonNode trace = CollectorClient.await("trace " + traceId, WAIT, () -> api.trace(traceId),
                t -> t.path("spans").size() > 0);
        assertThat(trace.path("spans")).as("spans of trace %s", traceId).hasSize(1);
        return trace.path("spans").get(0);
    }

    static boolean isRoot(JsonNode span) {
        JsonNode parent = span.path("parentSpanId");
        return parent.isMissingNode() || parent.isNull() || parent.asText().isEmpty()
                || parent.asText().equals("0000000000000000");
    }

    static void assertServerSpan(JsonNode span, String path, int status) {
        assertThat(span.path("name").asText()).isEqualTo("GET " + path);
        assertThat(span.path("kind").asText()).isEqualToIgnoringCase("server");
        assertThat(span.path("tags").path("http.method").asText()).isEqualTo("GET");
        assertThat(span.path("tags").path("http.path").asText()).isEqualTo(path);
        assertThat(span.path("tags").path("http.status_code").asText()).isEqualTo(String.valueOf(status));
        assertThat(span.path("status").asText()).isEqualToIgnoringCase(status >= 500 ? "error" : "ok");
        assertThat(span.path("durationNanos").asLong()).isPositive();
    }

    static void assertJoined(String traceId, String parentSpanId, String path) {
        JsonNode span = singleSpan(traceId);
        assertServerSpan(span, path, 200);
        assertThat(span.path("parentSpanId").asText()).isEqualTo(parentSpanId);
    }

    /**
     * Waits for a metrics batch the agent flushed after {@code epochMillis}: the agent's gauges go out
     * with every batch, after the spans queued before it, so by then everything recorded earlier is in.
     */
    static void awaitFlushAfter(String service, long epochMillis) {
        CollectorClient.await("a metrics flush of " + service + " after " + epochMillis, WAIT,
                () -> latestGaugeTime(service), t -> t > epochMillis);
    }

    private static long latestGaugeTime(String service) {
        long latest = 0;
        for (JsonNode instance : api.jvmMetrics(service).path("instances")) {
            for (JsonNode points : instance.path("series")) {
                for (JsonNode point : points) {
                    latest = Math.max(latest, point.get(0).asLong());
                }
            }
        }
        return latest;
    }

    static double adviceErrors(String service) {
        JsonNode instances = api.jvmMetrics(service).path("instances");
        assertThat(instances).hasSize(1);
        JsonNode value = instances.get(0).path("latest").path("agent.advice.errors");
        assertThat(value.isNumber()).as("agent.advice.errors gauge").isTrue();
        return value.asDouble();
    }

    static String hex(int digits) {
        StringBuilder out = new StringBuilder(digits);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        out.append("0123456789abcdef".charAt(1 + random.nextInt(15)));
        while (out.length() < digits) {
            out.append("0123456789abcdef".charAt(random.nextInt(16)));
        }
        return out.toString();
    }

    static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        if (array != null) {
            StreamSupport.stream(array.spliterator(), false).forEach(out::add);
        }
        return out;
    }
}
