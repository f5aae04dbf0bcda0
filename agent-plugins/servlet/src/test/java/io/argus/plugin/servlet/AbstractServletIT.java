package io.argus.plugin.servlet;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The servlet plugin in one servlet container: the test application ({@code src/test/app}: the same
 * servlets on Tomcat, Jetty 9.4 or Undertow) runs in a forked JVM with the assembled agent, which holds
 * the servlet plugin and the jetty, tomcat and undertow plugins (target/agent/plugins). Either the
 * container's own plugin is on, and the servlet plugin must record nothing itself (exactly one server
 * span and one count per request, from the container plugin), or it is switched off and the servlet
 * plugin records every request a servlet serves. Every assertion reads the collector's JSON API.
 */
abstract class AbstractServletIT {

    static final int N = 5;
    static final long ASYNC_DELAY_MS = 200;
    static final Duration WAIT = Duration.ofSeconds(30);

    final String w3cTrace = hex(32);
    final String w3cParent = hex(16);
    final String w3cSampled = "00-" + w3cTrace + "-" + w3cParent + "-01";
    final String w3cUnsampledTrace = hex(32);
    final String w3cUnsampled = "00-" + w3cUnsampledTrace + "-" + w3cParent + "-00";
    final String b3Trace = hex(32);
    final String b3Span = hex(16);
    final String b3MultiTrace = hex(32);
    final String b3MultiSpan = hex(16);
    final String asyncTrace = hex(32);

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

    /** A short name for service names. */
    abstract String name();

    /** The container's folder of jars under target/containers. */
    abstract String container();

    abstract boolean jakarta();

    /** tomcat, jetty or undertow: {@code TomcatMain}, {@code JettyMain} or {@code UndertowMain}. */
    abstract String containerPlugin();

    /** Whether the container's own plugin is switched on (it is installed either way). */
    abstract boolean containerPluginOn();

    String mainClass() {
        String c = containerPlugin();
        return "io.argus.plugin.servlet.app." + Character.toUpperCase(c.charAt(0)) + c.substring(1) + "Main";
    }

    String classpath() {
        String app = System.getProperty(jakarta() ? "argus.test.app.jakarta" : "argus.test.app.javax");
        return app + File.pathSeparator + Paths.get(System.getProperty("argus.test.containers"), container(), "*");
    }

    /** Whether the client span of an AsyncContext.dispatch() becomes a child (the jetty plugin leaves it out). */
    boolean asyncDispatchTraced() {
        return true;
    }

    /**
     * Whether a servlet answers a request no application servlet is mapped to: Jetty's and Undertow's
     * default servlets do; a bare embedded Tomcat context answers 404 from its valve, unseen by servlets.
     */
    boolean defaultServlet() {
        return !containerPlugin().equals("tomcat");
    }

    /** The path the metrics record for /forward (the undertow plugin records the path Undertow reports at the end). */
    String forwardMetricPath() {
        return "/forward";
    }

    /** Whether the span of a request whose servlet threw carries the exception (the undertow plugin leaves it out). */
    boolean exceptionTagged() {
        return true;
    }

    // ---- spans, metrics, propagation, async, dispatch types

    @Test
    void recordsEveryRequestOnceAt100Percent() throws Exception {
        recordsEveryRequestOnce(System.getProperty("java.home"));
    }

    void recordsEveryRequestOnce(String javaHome) throws Exception {
        String service = service("all", javaHome);
        try (AgentApp app = start(service, javaHome, 100).start()) {
            Set<String> plugins = new HashSet<>(Arrays.asList(pluginsLoaded(app).split(",\\s*")));
            assertThat(plugins).contains("servlet").containsAll(containerPluginOn() ? List.of(containerPlugin()) : List.of());
            assertThat(plugins.contains(containerPlugin())).isEqualTo(containerPluginOn());
            int port = readyPort(app);
            assertAgentInternalsHidden(app);

            // first what must not be traced, so that the spans awaited below prove its absence (FIFO export)
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
            assertThat(get(port, "/asyncdispatch")).isEqualTo(200);
            assertThat(System.nanoTime() - asyncStart).isGreaterThanOrEqualTo(2 * ASYNC_DELAY_MS * 1_000_000);
            assertThat(get(port, "/child")).isEqualTo(200);
            assertThat(get(port, "/forward")).isEqualTo(200);
            assertThat(get(port, "/nested")).isEqualTo(200);

            Map<String, Long> expected = new HashMap<>(Map.of(
                    "GET /hello/basic 200", (long) N, "GET /fail 500", 1L, "GET /boom 500", 1L,
                    "GET /hello/unsampled 200", 1L, "GET /hello/malformed 200", 1L, "GET /hello/w3c 200", 1L,
                    "GET /async 200", 1L, "GET /asyncdispatch 200", 1L, "GET /child 200", 1L, "GET " + forwardMetricPath() + " 200", 1L));
            expected.put("GET /nested 200", 1L);
            List<String> roots = new ArrayList<>(List.of(
                    "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic",
                    "GET /fail", "GET /boom", "GET /hello/malformed", "GET /hello/w3c", "GET /async",
                    "GET /asyncdispatch", "GET /child", "GET /forward", "GET /nested"));
            if (containerPluginOn() || defaultServlet()) {
                // the container plugin sees requests that no servlet serves; the servlet probe only when a default servlet does
                expected.put("GET /missing 404", 1L);
                roots.add("GET /missing");
            }
            Map<String, JsonNode> metrics = awaitServerMetrics(service, expected);
            assertThat(metrics.get("GET /hello/basic 200").path("errors").asLong()).isZero();
            assertThat(metrics.get("GET /fail 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /boom 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /async 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);
            assertThat(metrics.get("GET /asyncdispatch 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);

            List<JsonNode> traces = awaitTraces(service, roots.size());
            assertThat(rootNames(traces)).containsExactlyInAnyOrderElementsOf(roots);
            for (JsonNode summary : traces) {
                String name = summary.path("rootName").asText();
                if (name.equals("GET /child") || (name.equals("GET /asyncdispatch") && asyncDispatchTraced())) {
                    continue;
                }
                JsonNode span = singleSpan(summary.path("traceId").asText());
                int status = name.equals("GET /fail") || name.equals("GET /boom") ? 500 : name.equals("GET /missing") ? 404 : 200;
                assertServerSpan(span, name.substring(4), status);
                if (!name.equals("GET /hello/w3c")) {
                    assertThat(isRoot(span)).as("root span of %s", name).isTrue();
                }
            }
            if (exceptionTagged()) {
                assertThat(singleSpan(traceIdOf(traces, "GET /boom")).path("tags").path("error").asText())
                        .contains("IllegalStateException");
            }
            assertThat(singleSpan(traceIdOf(traces, "GET /async")).path("durationNanos").asLong())
                    .isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);
            assertServerWithChild(traceIdOf(traces, "GET /child"), "/child");
            if (asyncDispatchTraced()) {
                JsonNode dispatched = assertServerWithChild(traceIdOf(traces, "GET /asyncdispatch"), "/asyncdispatch");
                assertThat(dispatched.path("durationNanos").asLong()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);
            }

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
            assertThat(api.traces(service, 100)).hasSize(roots.size());
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    // ---- standalone only: inbound context at 0%, untraced async requests, no context left behind

    void joinsInboundSampledContextAtZeroPercent() throws Exception {
        String service = service("zero", System.getProperty("java.home"));
        try (AgentApp app = start(service, System.getProperty("java.home"), 0).start()) {
            int port = readyPort(app);
            for (int i = 0; i < 3; i++) {
                assertThat(get(port, "/hello/plain")).isEqualTo(200);
            }
            assertThat(get(port, "/async")).isEqualTo(200);
            assertThat(get(port, "/hello/w3c", "traceparent", w3cSampled)).isEqualTo(200);
            assertThat(get(port, "/ctx")).as("context left on the worker thread").isEqualTo(200);
            assertThat(get(port, "/hello/b3", "b3", b3Trace + "-" + b3Span + "-1")).isEqualTo(200);
            assertThat(get(port, "/hello/b3multi", "X-B3-TraceId", b3MultiTrace, "X-B3-SpanId", b3MultiSpan,
                    "X-B3-Sampled", "1")).isEqualTo(200);
            assertThat(get(port, "/asyncdispatch", "traceparent", "00-" + asyncTrace + "-" + w3cParent + "-01")).isEqualTo(200);
            assertThat(get(port, "/ctx")).as("context left on the worker thread").isEqualTo(200);
            assertThat(get(port, "/boom", "traceparent", w3cUnsampled)).isEqualTo(500);
            assertThat(get(port, "/ctx")).as("context left on the worker thread").isEqualTo(200);

            assertJoined(w3cTrace, w3cParent, "/hello/w3c");
            assertJoined(b3Trace, b3Span, "/hello/b3");
            assertJoined(b3MultiTrace, b3MultiSpan, "/hello/b3multi");
            Map<String, JsonNode> metrics = awaitServerMetrics(service, Map.of(
                    "GET /hello/plain 200", 3L, "GET /async 200", 1L, "GET /hello/w3c 200", 1L,
                    "GET /hello/b3 200", 1L, "GET /hello/b3multi 200", 1L, "GET /asyncdispatch 200", 1L,
                    "GET /ctx 200", 3L, "GET /boom 500", 1L));
            assertThat(metrics.get("GET /async 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);
            assertThat(metrics.get("GET /boom 500").path("errors").asLong()).isEqualTo(1);
            CollectorClient.await("trace " + asyncTrace, WAIT, () -> api.trace(asyncTrace), t -> t.path("spans").size() == 2);
            assertThat(rootNames(list(api.traces(service, 100))))
                    .containsExactlyInAnyOrder("GET /hello/w3c", "GET /hello/b3", "GET /hello/b3multi", "GET /asyncdispatch");
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    /** The servlet plugin and the container's plugin off: nothing recorded, no class changed. */
    void recordsNothingWhenDisabled() throws Exception {
        String service = service("off", System.getProperty("java.home"));
        try (AgentApp app = start(service, System.getProperty("java.home"), 100)
                .agent("argus.plugin.servlet.enabled", false).start()) {
            assertThat(pluginsLoaded(app)).doesNotContain("servlet").doesNotContain(containerPlugin());
            int port = readyPort(app);
            for (int i = 0; i < N; i++) {
                assertThat(get(port, "/hello/basic")).isEqualTo(200);
            }
            assertThat(get(port, "/fail")).isEqualTo(500);
            assertThat(get(port, "/async")).isEqualTo(200);
            awaitFlushAfter(service, System.currentTimeMillis());
            assertThat(api.traces(service, 100)).isEmpty();
            assertThat(serverMetrics(service)).isEmpty();
            assertThat(agentGauge(service, "agent.classes.transformed")).isZero();
        }
    }

    // ---- helpers: the application

    String service(String scenario, String javaHome) {
        String jdk = javaHome.equals(System.getProperty("java.home")) ? "jdk" + Runtime.version().feature()
                : Paths.get(javaHome).getFileName().toString();
        return "servlet-" + name() + "-" + scenario + "-" + jdk;
    }

    AgentApp.Builder start(String service, String javaHome, int samplingRate) {
        AgentApp.Builder builder = AgentApp.builder(mainClass())
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(samplingRate)
                .classpath(classpath());
        if (containerPlugin() != null && !containerPluginOn()) {
            builder.agent("argus.plugin." + containerPlugin() + ".enabled", false);
        }
        String logs = System.getProperty("argus.test.logs");
        if (logs != null) {
            builder.logTo(Paths.get(logs, service + ".log"));
        }
        return builder;
    }

    static int readyPort(AgentApp app) {
        return Integer.parseInt(app.awaitLine("READY port=(\\d+)", WAIT).group(1));
    }

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

    // ---- helpers: the collector

    static Map<String, JsonNode> serverMetrics(String service) {
        Map<String, JsonNode> rows = new HashMap<>();
        for (JsonNode row : list(api.httpMetrics(service))) {
            if (row.path("kind").asText().equals("server")) {
                rows.put(row.path("method").asText() + " " + row.path("target").asText() + " " + row.path("status").asInt(), row);
            }
        }
        return rows;
    }

    static Map<String, Long> counts(Map<String, JsonNode> metrics) {
        return metrics.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().path("count").asLong()));
    }

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

    static JsonNode singleSpan(String traceId) {
        JsonNode trace = CollectorClient.await("trace " + traceId, WAIT, () -> api.trace(traceId),
                t -> t.path("spans").size() > 0);
        assertThat(trace.path("spans")).as("spans of trace %s", traceId).hasSize(1);
        return trace.path("spans").get(0);
    }

    /** A trace of a server span and one client span under it; returns the server span. */
    static JsonNode assertServerWithChild(String traceId, String path) {
        JsonNode trace = CollectorClient.await("trace " + traceId, WAIT, () -> api.trace(traceId),
                t -> t.path("spans").size() >= 2);
        assertThat(trace.path("spans")).as("spans of trace %s", traceId).hasSize(2);
        JsonNode server = null;
        JsonNode client = null;
        for (JsonNode span : trace.path("spans")) {
            if (span.path("kind").asText().equalsIgnoreCase("server")) {
                server = span;
            } else {
                client = span;
            }
        }
        assertThat(server).as("server span of %s", path).isNotNull();
        assertThat(client).as("client span of %s", path).isNotNull();
        assertServerSpan(server, path, 200);
        assertThat(isRoot(server)).isTrue();
        assertThat(client.path("kind").asText()).isEqualToIgnoringCase("client");
        assertThat(client.path("parentSpanId").asText()).isEqualTo(server.path("spanId").asText());
        return server;
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

    /** Waits for a metrics batch flushed after {@code epochMillis}: everything recorded before it is in by then. */
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

    /** The latest value of one of the agent's own gauges (agent.advice.errors, agent.classes.transformed). */
    static double agentGauge(String service, String name) {
        JsonNode instances = api.jvmMetrics(service).path("instances");
        assertThat(instances).hasSize(1);
        JsonNode value = instances.get(0).path("latest").path(name);
        assertThat(value.isNumber()).as("%s gauge", name).isTrue();
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
