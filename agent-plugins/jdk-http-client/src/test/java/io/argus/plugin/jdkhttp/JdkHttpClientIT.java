package io.argus.plugin.jdkhttp;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.jdkhttp.AppRun.TraceContext;
import io.argus.plugin.jdkhttp.app.HttpClientApp;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against the real {@code java.net.http.HttpClient} of each test JDK: one application
 * JVM per (JDK, plugin on/off), with the real agent, a real downstream server inside it and a real
 * collector in this JVM. Each run is started once and shared by the tests that read it.
 */
class JdkHttpClientIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String APP = HttpClientApp.class.getName();

    private static TestCollector collector;
    private static CollectorClient client;
    private static final Map<String, AppRun> RUNS = new ConcurrentHashMap<>();

    @BeforeAll
    static void startCollector() {
        collector = TestCollector.start();
        client = collector.client();
    }

    @AfterAll
    static void stopAll() {
        RUNS.values().forEach(AppRun::close);
        if (collector != null) {
            collector.close();
        }
    }

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    private static AppRun enabled(String javaHome) {
        return RUNS.computeIfAbsent("on " + javaHome, k -> AppRun.start(APP, javaHome,
                "jdkhttp-" + AppRun.label(javaHome), collector.ingestPort(), Map.of()));
    }

    private static AppRun disabled(String javaHome) {
        return RUNS.computeIfAbsent("off " + javaHome, k -> AppRun.start(APP, javaHome,
                "jdkhttp-off-" + AppRun.label(javaHome), collector.ingestPort(),
                Map.of("argus.plugin.jdk-http-client.enabled", "false")));
    }

    private static JsonNode awaitTrace(TraceContext root, int spans) {
        return CollectorClient.await("trace " + root.traceId() + " with " + spans + " spans", WAIT,
                () -> client.trace(root.traceId()), t -> t.path("spans").size() >= spans);
    }

    private static JsonNode span(JsonNode trace, String kind) {
        JsonNode found = null;
        for (JsonNode span : trace.path("spans")) {
            if (kind.equals(span.path("kind").asText())) {
                assertThat(found).as("only one %s span in %s", kind, trace).isNull();
                found = span;
            }
        }
        assertThat(found).as("a %s span in %s", kind, trace).isNotNull();
        return found;
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void tracedCallIsAClientSpanUnderTheCurrentSpanAndItsTraceparentReachesTheServer(String javaHome) {
        AppRun run = enabled(javaHome);
        TraceContext root = run.root("traced");

        JsonNode trace = awaitTrace(root, 2);
        assertThat(trace.path("spans")).hasSize(2);
        JsonNode server = span(trace, "SERVER");
        JsonNode clientSpan = span(trace, "CLIENT");
        assertThat(server.path("spanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("name").asText()).isEqualTo("GET 127.0.0.1");
        assertThat(clientSpan.path("status").asText()).isNotEqualTo("ERROR");
        JsonNode tags = clientSpan.path("tags");
        assertThat(tags.path("http.method").asText()).isEqualTo("GET");
        assertThat(tags.path("http.url").asText()).isEqualTo("http://127.0.0.1:" + run.port + "/ok?tag=traced");
        assertThat(tags.path("peer").asText()).isEqualTo("127.0.0.1:" + run.port);
        assertThat(tags.path("http.status_code").asText()).isEqualTo("200");

        // the downstream server got the client span as its parent, on the wire
        TraceContext received = TraceContext.parse(run.receivedTraceparent("traced"));
        assertThat(received).isNotNull();
        assertThat(received.traceId()).isEqualTo(root.traceId());
        assertThat(received.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        assertThat(run.first("RECEIVED", "traced").get("traceparent")).endsWith("-01");
        // the rebuilt request kept the user's own header, and the call returned the real response
        assertThat(run.first("RECEIVED", "traced").get("x-test")).isEqualTo("traced");
        assertThat(run.first("STATUS", "traced").get("code")).isEqualTo("200");
        assertThat(run.first("STATUS", "traced").get("body")).isEqualTo("hello-traced");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void inboundTracestateIsPassedOn(String javaHome) {
        AppRun run = enabled(javaHome);
        Map<String, String> received = run.first("RECEIVED", "tracestate");
        assertThat(received.get("tracestate")).isEqualTo("vendor=argus");
        assertThat(TraceContext.parse(received.get("traceparent")).traceId())
                .isEqualTo(run.first("INBOUND", "tracestate").get("traceId"));
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void refusedConnectionIsAnErrorSpanAndTheCallerGetsTheSameExceptionAsWithoutThePlugin(String javaHome) {
        AppRun run = enabled(javaHome);
        TraceContext root = run.root("refused-traced");

        JsonNode trace = awaitTrace(root, 2);
        JsonNode clientSpan = span(trace, "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
        assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
        assertThat(clientSpan.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.closedPort + "/refused?tag=refused-traced");
        assertThat(run.has("RECEIVED", "refused-traced")).isFalse();

        // the exception reaches the caller exactly as it does without the plugin
        AppRun baseline = disabled(javaHome);
        for (String tag : List.of("refused-traced", "refused-plain")) {
            Map<String, String> error = run.first("ERROR", tag);
            assertThat(error.get("class")).isEqualTo("java.net.ConnectException");
            assertThat(error.get("class")).isEqualTo(baseline.first("ERROR", tag).get("class"));
            assertThat(error.get("message")).isEqualTo(baseline.first("ERROR", tag).get("message"));
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void everySynchronousCallIsCountedExactlyOnce(String javaHome) {
        AppRun run = enabled(javaHome);
        run.awaitAllMetricsStored(client);
        List<JsonNode> rows = run.clientRows(client, "127.0.0.1");

        // traced + untraced + the one under an inbound tracestate
        JsonNode ok = AppRun.row(rows, "GET", 200);
        assertThat(ok).as("GET 127.0.0.1 200 in %s", rows).isNotNull();
        assertThat(ok.path("count").asLong()).isEqualTo(1 + HttpClientApp.PLAIN_CALLS + 1);
        assertThat(ok.path("errors").asLong()).isZero();

        JsonNode refused = AppRun.row(rows, "GET", 0);
        assertThat(refused).as("refused calls in %s", rows).isNotNull();
        assertThat(refused.path("count").asLong()).isEqualTo(2);
        assertThat(refused.path("errors").asLong()).isEqualTo(2);

        JsonNode missing = AppRun.row(rows, "GET", 404);
        assertThat(missing).as("404 in %s", rows).isNotNull();
        assertThat(missing.path("count").asLong()).isEqualTo(1);
        assertThat(missing.path("errors").asLong()).isEqualTo(1);

        assertThat(rows).as("no other client rows for 127.0.0.1").hasSize(3);
        assertThat(ok.path("maxMs").asDouble()).isGreaterThan(0);
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(String javaHome) {
        AppRun run = enabled(javaHome);
        for (int i = 0; i < HttpClientApp.PLAIN_CALLS; i++) {
            assertThat(run.receivedTraceparent("plain" + i)).as("plain%d", i).isNull();
            assertThat(run.first("RECEIVED", "plain" + i).get("tracestate")).isEqualTo("null");
            assertThat(run.first("STATUS", "plain" + i).get("code")).isEqualTo("200");
        }
        run.awaitAllMetricsStored(client);
        // every client span of this service belongs to one of the calls made under a span
        List<String> urls = new ArrayList<>();
        for (JsonNode summary : client.traces(run.service, 100)) {
            JsonNode trace = client.trace(summary.path("traceId").asText());
            for (JsonNode span : trace.path("spans")) {
                if ("CLIENT".equals(span.path("kind").asText()) && run.service.equals(span.path("service").asText())) {
                    urls.add(span.path("tags").path("http.url").asText());
                }
            }
        }
        assertThat(urls).noneMatch(url -> url.contains("tag=plain") || url.contains("refused-plain")
                || url.contains("tag=missing") || url.matches(".*tag=async\\d+$"));
        assertThat(urls).anyMatch(url -> url.endsWith("tag=traced"));
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void sendAsyncWorksAndCarriesTheCallersTraceContext(String javaHome) {
        AppRun run = enabled(javaHome);
        TraceContext root = run.root("async-traced");
        TraceContext received = TraceContext.parse(run.receivedTraceparent("async-traced"));
        assertThat(received).isNotNull();
        assertThat(received.traceId()).isEqualTo(root.traceId());
        // the downstream's parent is the async call's own client span (checked in sendAsyncIsTracedAndCountedOnce)
        assertThat(received.spanId()).isNotEqualTo(root.spanId());
        assertThat(run.first("RECEIVED", "async-traced").get("x-test")).isEqualTo("async-traced");
        assertThat(run.first("STATUS", "async-traced").get("code")).isEqualTo("200");
        for (int i = 0; i < HttpClientApp.ASYNC_CALLS; i++) {
            assertThat(run.receivedTraceparent("async" + i)).isNull();
            assertThat(run.first("STATUS", "async" + i).get("code")).isEqualTo("200");
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void sendAsyncIsTracedAndCountedOnce(String javaHome) {
        AppRun run = enabled(javaHome);
        TraceContext root = run.root("async-traced");
        JsonNode clientSpan = span(awaitTrace(root, 2), "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(TraceContext.parse(run.receivedTraceparent("async-traced")).spanId())
                .isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        run.awaitAllMetricsStored(client);
        List<JsonNode> rows = run.clientRows(client, "localhost");
        assertThat(rows).hasSize(1);
        assertThat(AppRun.row(rows, "GET", 200).path("count").asLong()).isEqualTo(1 + HttpClientApp.ASYNC_CALLS);
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void disabledPluginRecordsNothingAndCallsStillWork(String javaHome) {
        AppRun run = disabled(javaHome);
        for (String tag : List.of("traced", "plain0", "tracestate", "missing", "async-traced", "async0")) {
            assertThat(run.has("STATUS", tag)).as(tag).isTrue();
        }
        assertThat(run.first("STATUS", "traced").get("code")).isEqualTo("200");
        assertThat(run.first("STATUS", "missing").get("code")).isEqualTo("404");
        assertThat(run.receivedTraceparent("traced")).isNull();
        assertThat(run.receivedTraceparent("async-traced")).isNull();
        // the agent itself reports (the hand-made server spans), the plugin adds nothing
        run.awaitAllMetricsStored(client);
        assertThat(run.clientRows(client, null)).isEmpty();
        JsonNode trace = awaitTrace(run.root("traced"), 1);
        assertThat(trace.path("spans")).hasSize(1);
        assertThat(trace.path("spans").get(0).path("kind").asText()).isEqualTo("SERVER");
    }
}
