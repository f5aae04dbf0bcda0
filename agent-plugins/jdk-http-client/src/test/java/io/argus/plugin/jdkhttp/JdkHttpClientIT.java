package io.argus.plugin.jdkhttp;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.jdkhttp.app.HttpClientApp;
import io.argus.testing.AbstractClientPluginIT;
import io.argus.testing.AgentApp;
import io.argus.testing.ClientAppRun;
import io.argus.testing.TraceContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against the real {@code java.net.http.HttpClient} of each test JDK: one application
 * JVM per (JDK, plugin on/off), with the real agent, a real downstream server inside it and a real
 * collector in this JVM. Each run is started once and shared by the tests that read it.
 */
class JdkHttpClientIT extends AbstractClientPluginIT {

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    private static ClientAppRun enabled(String javaHome) {
        return launch("jdkhttp-" + jdkLabel(javaHome), HttpClientApp.class.getName(), javaHome, null, Map.of()).done();
    }

    private static ClientAppRun disabled(String javaHome) {
        return launch("jdkhttp-off-" + jdkLabel(javaHome), HttpClientApp.class.getName(), javaHome, null,
                Map.of("argus.plugin.jdk-http-client.enabled", "false")).done();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void tracedCallIsAClientSpanUnderTheCurrentSpanAndItsTraceparentReachesTheServer(String javaHome) {
        // the rebuilt request kept the application's own header, and the call returned the real response
        assertTracedGet(enabled(javaHome), "traced");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void inboundTracestateIsPassedOn(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        assertTracestatePassedOn(run, "tracestate");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void refusedConnectionIsAnErrorSpanAndTheCallerGetsTheSameExceptionAsWithoutThePlugin(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        TraceContext root = run.root("refused-traced");

        JsonNode trace = awaitTrace(root, 2);
        JsonNode clientSpan = span(trace, "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
        assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
        assertThat(clientSpan.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.closedPort() + "/refused?tag=refused-traced");
        assertThat(run.has("RECEIVED", "refused-traced")).isFalse();

        // the exception reaches the caller exactly as it does without the plugin
        ClientAppRun baseline = disabled(javaHome);
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
        ClientAppRun run = enabled(javaHome);
        awaitAllMetricsStored(run);
        List<JsonNode> rows = clientRows(run, "127.0.0.1");

        // traced + untraced + the one under an inbound tracestate + the redirected one (one call, its final
        // status) and the one with stale headers
        assertRow(rows, "GET", 200, 1 + HttpClientApp.PLAIN_CALLS + 1 + HttpClientApp.MORE_TRACED_CALLS, 0);
        assertRow(rows, "GET", 0, 2, 2);
        assertRow(rows, "GET", 404, 1, 1);

        assertThat(rows).as("no other client rows for 127.0.0.1").hasSize(3);
        assertThat(row(rows, "GET", 200).path("maxMs").asDouble()).isGreaterThan(0);
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        for (int i = 0; i < HttpClientApp.PLAIN_CALLS; i++) {
            assertThat(run.receivedTraceparent("plain" + i)).as("plain%d", i).isNull();
            assertThat(run.first("RECEIVED", "plain" + i).get("tracestate")).isEqualTo("null");
            assertThat(run.first("STATUS", "plain" + i).get("code")).isEqualTo("200");
        }
        awaitAllMetricsStored(run);
        // every client span of this service belongs to one of the calls made under a span
        List<String> urls = clientUrls(run);
        assertThat(urls).noneMatch(url -> url.contains("tag=plain") || url.contains("refused-plain")
                || url.contains("tag=missing") || url.matches(".*tag=async\\d+$"));
        assertThat(urls).anyMatch(url -> url.endsWith("tag=traced"));
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void aRedirectedCallCarriesItsSpansContextToEveryHop(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        TraceContext root = run.root("redirect-traced");
        JsonNode clientSpan = span(awaitTrace(root, 2), "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("tags").path("http.status_code").asText()).isEqualTo("200");

        List<Map<String, String>> hops = run.all("RECEIVED", "redirect-traced");
        assertThat(hops).extracting(hop -> hop.get("path")).containsExactly("/redirect", "/ok");
        for (Map<String, String> hop : hops) {
            TraceContext received = TraceContext.parse(hop.get("traceparent"));
            assertThat(received).as(hop.get("path")).isNotNull();
            assertThat(received.traceId()).isEqualTo(root.traceId());
            assertThat(received.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
            assertThat(hop.get("x-test")).isEqualTo("redirect-traced");
        }
        assertThat(run.first("STATUS", "redirect-traced").get("code")).isEqualTo("200");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void traceHeadersTheApplicationCopiedOntoTheRequestAreReplacedByTheSpans(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        TraceContext root = run.root("stale-headers");
        JsonNode clientSpan = span(awaitTrace(root, 2), "CLIENT");
        Map<String, String> received = run.first("RECEIVED", "stale-headers");
        assertThat(received.get("traceparent")).isNotEqualTo(HttpClientApp.STALE_TRACEPARENT);
        TraceContext context = TraceContext.parse(received.get("traceparent"));
        assertThat(context.traceId()).isEqualTo(root.traceId());
        assertThat(context.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        // the root has no tracestate: the copied one is removed, not sent
        assertThat(received.get("tracestate")).isEqualTo("null");
        assertThat(received.get("x-test")).isEqualTo("stale-headers");
        assertThat(run.first("STATUS", "stale-headers").get("code")).isEqualTo("200");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void sendAsyncWorksAndCarriesTheCallersTraceContext(String javaHome) {
        ClientAppRun run = enabled(javaHome);
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
        ClientAppRun run = enabled(javaHome);
        TraceContext root = run.root("async-traced");
        JsonNode clientSpan = span(awaitTrace(root, 2), "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(TraceContext.parse(run.receivedTraceparent("async-traced")).spanId())
                .isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        awaitAllMetricsStored(run);
        List<JsonNode> rows = clientRows(run, "localhost");
        assertThat(rows).hasSize(1);
        assertThat(row(rows, "GET", 200).path("count").asLong()).isEqualTo(1 + HttpClientApp.ASYNC_CALLS);
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void disabledPluginRecordsNothingAndCallsStillWork(String javaHome) {
        ClientAppRun run = disabled(javaHome);
        for (String tag : List.of("traced", "plain0", "tracestate", "missing", "async-traced", "async0")) {
            assertThat(run.has("STATUS", tag)).as(tag).isTrue();
        }
        assertThat(run.first("STATUS", "traced").get("code")).isEqualTo("200");
        assertThat(run.first("STATUS", "missing").get("code")).isEqualTo("404");
        assertThat(run.receivedTraceparent("traced")).isNull();
        assertThat(run.receivedTraceparent("async-traced")).isNull();
        // the agent itself reports (the hand-made server spans), the plugin adds nothing
        assertNoClientRecorded(run, "traced");
    }
}
