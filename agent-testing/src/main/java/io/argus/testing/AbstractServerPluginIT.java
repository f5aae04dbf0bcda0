package io.argus.testing;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An HTTP server plugin IT: the test application prints {@code READY port=<n>} (and the class
 * visibility line of agent-testing-app's {@code ClassVisibility}) once it serves; the test sends it real
 * requests and reads the server spans and metrics from the collector.
 */
public abstract class AbstractServerPluginIT extends AbstractCollectorIT {

    /** How many plain requests {@link #sendBasicRequests} sends. */
    protected static final int N = 5;
    /** How long the test applications' {@code /async} endpoints take to answer. */
    protected static final long ASYNC_DELAY_MS = 200;

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    // inbound trace context: fresh ids per test, since all runs of a class share one collector
    protected final String w3cTrace = hex(32);
    protected final String w3cParent = hex(16);
    protected final String w3cSampled = "00-" + w3cTrace + "-" + w3cParent + "-01";
    protected final String w3cUnsampledTrace = hex(32);
    protected final String w3cUnsampled = "00-" + w3cUnsampledTrace + "-" + w3cParent + "-00";
    protected final String b3Trace = hex(32);
    protected final String b3Span = hex(16);
    protected final String b3MultiTrace = hex(32);
    protected final String b3MultiSpan = hex(16);

    // ---- the application

    /** The forked application's main class. */
    protected abstract String mainClass();

    /** The forked application's class path. */
    protected abstract String classpath();

    /** The start of the service names, e.g. the plugin and the version under test. */
    protected abstract String servicePrefix();

    protected String service(String scenario, String javaHome) {
        return servicePrefix() + "-" + scenario + "-" + jdkLabel(javaHome);
    }

    /**
     * The application, not started yet, with the agent reporting to the collector as {@code service}; its
     * class path also holds agent-testing-app (for {@code ClassVisibility}).
     */
    protected AgentApp.Builder start(String service, String javaHome, int samplingRate) {
        return AgentApp.builder(mainClass())
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(samplingRate)
                .classpath(classpath())
                .withTestingApp()
                .logToTestLogs(service);
    }

    /** The port the application printed in its {@code READY port=<n>} line. */
    protected static int readyPort(AgentApp app) {
        return Integer.parseInt(app.awaitLine("READY port=(\\d+)", WAIT).group(1));
    }

    /** The agent's start-up line lists the plugins it loaded. */
    protected static String pluginsLoaded(AgentApp app) {
        return app.awaitLine("\\[argus\\] .*plugins=\\[([^\\]]*)\\]", WAIT).group(1);
    }

    protected static void assertAgentInternalsHidden(AgentApp app) {
        Matcher visibility = app.awaitLine("VISIBILITY bytebuddy=(\\w+) core=(\\w+) bridge=(\\w+)", WAIT);
        assertThat(visibility.group(1)).as("agent's ByteBuddy visible to the application").isEqualTo("false");
        assertThat(visibility.group(2)).as("agent core visible to the application").isEqualTo("false");
        assertThat(visibility.group(3)).as("bridge on the bootstrap path").isEqualTo("true");
    }

    /** A GET to the application with the given header names and values; returns the status. */
    protected static int get(int port, String pathAndQuery, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /**
     * The requests every server IT starts with: {@code /hello/unsampled} with an unsampled inbound
     * context, {@value #N} x {@code /hello/basic}, {@code /fail} (500), {@code /boom} (the application
     * throws: 500), {@code /missing} (404), {@code /hello/malformed} with malformed W3C and B3 headers,
     * {@code /hello/w3c} with a sampled one. What must not be traced goes first, so that the spans awaited
     * afterwards prove its absence (the agent exports in order).
     */
    protected void sendBasicRequests(int port) throws IOException, InterruptedException {
        assertThat(get(port, "/hello/unsampled", "traceparent", w3cUnsampled)).isEqualTo(200);
        for (int i = 0; i < N; i++) {
            assertThat(get(port, "/hello/basic?i=" + i)).isEqualTo(200);
        }
        assertThat(get(port, "/fail")).isEqualTo(500);
        assertThat(get(port, "/boom")).isEqualTo(500);
        assertThat(get(port, "/missing")).isEqualTo(404);
        assertThat(get(port, "/hello/malformed", "traceparent", "00-not-a-trace-id-01", "b3", "zz-yy-1")).isEqualTo(200);
        assertThat(get(port, "/hello/w3c", "traceparent", w3cSampled, "tracestate", "vendor=1")).isEqualTo(200);
    }

    /**
     * With {@code argus.plugin.<plugin>.enabled=false}: requests to {@code /hello/basic}, {@code /fail} and
     * {@code /async} are served, and nothing is recorded, no class changed.
     *
     * @param loadedPlugins checks the list of plugins the agent loaded
     */
    protected void verifyRecordsNothingWhenDisabled(String plugin, Consumer<String> loadedPlugins) throws Exception {
        String service = service("off", JDK);
        try (AgentApp app = start(service, JDK, 100).agent("argus.plugin." + plugin + ".enabled", false).start()) {
            loadedPlugins.accept(pluginsLoaded(app));
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

    // ---- the collector

    /** Server metric rows of the service, keyed "METHOD target status". */
    protected static Map<String, JsonNode> serverMetrics(String service) {
        Map<String, JsonNode> rows = new HashMap<>();
        for (JsonNode row : list(api.httpMetrics(service))) {
            if (row.path("kind").asText().equals("server")) {
                rows.put(row.path("method").asText() + " " + row.path("target").asText() + " " + row.path("status").asInt(), row);
            }
        }
        return rows;
    }

    protected static Map<String, Long> counts(Map<String, JsonNode> metrics) {
        return metrics.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().path("count").asLong()));
    }

    /** Waits until the server metrics are exactly {@code expected} (row key to count). */
    protected static Map<String, JsonNode> awaitServerMetrics(String service, Map<String, Long> expected) {
        return CollectorClient.await("server metrics " + expected, WAIT, () -> serverMetrics(service),
                rows -> counts(rows).equals(expected));
    }

    protected static List<JsonNode> awaitTraces(String service, int count) {
        return CollectorClient.await(count + " traces of " + service, WAIT,
                () -> list(api.traces(service, 100)), traces -> traces.size() >= count);
    }

    protected static List<String> rootNames(List<JsonNode> traces) {
        return traces.stream().map(t -> t.path("rootName").asText()).collect(Collectors.toList());
    }

    protected static String traceIdOf(List<JsonNode> traces, String rootName) {
        return traces.stream().filter(t -> t.path("rootName").asText().equals(rootName))
                .map(t -> t.path("traceId").asText()).findFirst().orElseThrow();
    }

    /** The only span of a trace, waiting for it to be stored. */
    protected static JsonNode singleSpan(String traceId) {
        JsonNode trace = awaitTrace(traceId, 1);
        assertThat(trace.path("spans")).as("spans of trace %s", traceId).hasSize(1);
        return trace.path("spans").get(0);
    }

    /** A trace of a server span and one client span under it; returns the server span. */
    protected static JsonNode assertServerWithChild(String traceId, String path) {
        JsonNode trace = awaitTrace(traceId, 2);
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

    /** After {@link #sendBasicRequests} and {@code /async}: the errors are the 500s only, and /async took its time. */
    protected static void assertBasicMetrics(Map<String, JsonNode> metrics) {
        assertThat(metrics.get("GET /hello/basic 200").path("errors").asLong()).isZero();
        assertThat(metrics.get("GET /fail 500").path("errors").asLong()).isEqualTo(1);
        assertThat(metrics.get("GET /boom 500").path("errors").asLong()).isEqualTo(1);
        assertThat(metrics.get("GET /async 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);
    }

    /**
     * Each of the {@code traces} (but those whose root name {@code skip} accepts) is a single server span
     * of its GET, with the status {@link #sendBasicRequests} expects (500 for /fail and /boom, 404 for
     * /missing, else 200), and a root unless it joined the inbound context of /hello/w3c.
     */
    protected static void assertServerSpans(List<JsonNode> traces, Predicate<String> skip) {
        for (JsonNode summary : traces) {
            String name = summary.path("rootName").asText();
            if (skip.test(name)) {
                continue;
            }
            JsonNode span = singleSpan(summary.path("traceId").asText());
            int status = name.equals("GET /fail") || name.equals("GET /boom") ? 500 : name.equals("GET /missing") ? 404 : 200;
            assertServerSpan(span, name.substring(4), status);
            if (!name.equals("GET /hello/w3c")) {
                assertThat(isRoot(span)).as("root span of %s", name).isTrue();
            }
        }
    }

    /**
     * Nothing was counted twice: one more metrics flush changes none of the {@code metrics} counts, and
     * the collector holds {@code traces} traces of the service. No advice failed either.
     */
    protected static void assertCountedOnce(String service, Map<String, JsonNode> metrics, int traces) {
        awaitFlushAfter(service, System.currentTimeMillis());
        assertThat(counts(serverMetrics(service))).isEqualTo(counts(metrics));
        assertThat(api.traces(service, 100)).hasSize(traces);
        assertThat(agentGauge(service, "agent.advice.errors")).isZero();
    }

    /** A server span of a GET of {@code path}, answered with {@code status}. */
    protected static void assertServerSpan(JsonNode span, String path, int status) {
        assertServerSpan(span, "GET", path, status);
    }

    protected static void assertServerSpan(JsonNode span, String method, String path, int status) {
        assertThat(span.path("name").asText()).isEqualTo(method + " " + path);
        assertThat(span.path("kind").asText()).isEqualToIgnoringCase("server");
        assertThat(span.path("tags").path("http.method").asText()).isEqualTo(method);
        assertThat(span.path("tags").path("http.path").asText()).isEqualTo(path);
        assertThat(span.path("tags").path("http.status_code").asText()).isEqualTo(String.valueOf(status));
        assertThat(span.path("status").asText()).as("status of %s", path).isEqualToIgnoringCase(status >= 500 ? "error" : "ok");
        assertThat(span.path("durationNanos").asLong()).isPositive();
    }

    /** The request to {@code path} is the only span of the inbound trace, a child of the inbound parent. */
    protected static void assertJoined(String traceId, String parentSpanId, String path) {
        JsonNode span = singleSpan(traceId);
        assertServerSpan(span, path, 200);
        assertThat(span.path("parentSpanId").asText()).isEqualTo(parentSpanId);
    }

    /**
     * After requests to /hello/w3c with {@link #w3cSampled}, /hello/malformed with a malformed context
     * and /hello/unsampled with {@link #w3cUnsampled}: /hello/w3c joined its sampled inbound context,
     * /hello/malformed started a trace of its own, the unsampled inbound trace has no span.
     */
    protected void assertInboundContextHandled(List<JsonNode> traces) {
        JsonNode joined = singleSpan(w3cTrace);
        assertThat(joined.path("name").asText()).isEqualTo("GET /hello/w3c");
        assertThat(joined.path("parentSpanId").asText()).isEqualTo(w3cParent);
        assertThat(traceIdOf(traces, "GET /hello/malformed")).isNotIn(w3cTrace, w3cUnsampledTrace);
        JsonNode unsampled = api.trace(w3cUnsampledTrace);
        assertThat(unsampled == null || unsampled.path("spans").isEmpty())
                .as("no span of the unsampled inbound trace: %s", unsampled).isTrue();
    }
}
