package io.argus.plugin.jetty;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractServerPluginIT;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The jetty plugin against one real Jetty version: a test application runs in a forked JVM with the
 * assembled agent (target/agent) and reports to a real collector in this JVM; every assertion reads
 * the collector's JSON API. Subclasses say which application and class path to run.
 */
abstract class AbstractJettyIT extends AbstractServerPluginIT {

    /** A short name of the Jetty version under test, used in service names. */
    abstract String jetty();

    @Override
    protected String servicePrefix() {
        return "jetty-" + jetty();
    }

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    // ---- 1, 2 (at 100%), 3, 5, 6: spans, metrics, propagation, async, isolation, on each JDK

    @ParameterizedTest(name = "{0}")
    @MethodSource("javaHomes")
    void recordsEveryRequestAt100Percent(String javaHome) throws Exception {
        String service = service("all", javaHome);
        verifyRecordsEveryRequest(service, start(service, javaHome, 100), 200);
    }

    /** As with real fields, when every request's state lives in the agent's map (a class loaded before the agent was up). */
    @Test
    void recordsEveryRequestWithTheStateInTheMap() throws Exception {
        String service = service("mapped", JDK);
        verifyRecordsEveryRequest(service, start(service, JDK, 100).agent("argus.state.ownerFields", false), 409);
    }

    private void verifyRecordsEveryRequest(String service, AgentApp.Builder application, int fieldsStatus)
            throws Exception {
        try (AgentApp app = application.start()) {
            int port = readyPort(app);
            assertAgentInternalsHidden(app);
            assertThat(get(port, "/fields")).as("Jetty's request class has real fields").isEqualTo(fieldsStatus);

            sendBasicRequests(port);
            // only now: the requests above went out as soon as the application answered
            assertThat(pluginsLoaded(app)).isEqualTo("jetty");
            long asyncStart = System.nanoTime();
            assertThat(get(port, "/async")).isEqualTo(200);
            assertThat(System.nanoTime() - asyncStart).isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);

            Map<String, JsonNode> metrics = awaitServerMetrics(service, Map.of(
                    "GET /hello/basic 200", (long) N, "GET /fail 500", 1L, "GET /boom 500", 1L,
                    "GET /missing 404", 1L, "GET /hello/unsampled 200", 1L, "GET /hello/malformed 200", 1L,
                    "GET /hello/w3c 200", 1L, "GET /async 200", 1L, "GET /fields " + fieldsStatus, 1L));
            assertBasicMetrics(metrics);
            assertThat(metrics.get("GET /missing 404").path("errors").asLong()).isZero();

            List<JsonNode> traces = awaitTraces(service, 12);
            assertThat(rootNames(traces)).containsExactlyInAnyOrder(
                    "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic",
                    "GET /fail", "GET /boom", "GET /missing", "GET /hello/malformed", "GET /hello/w3c", "GET /async",
                    "GET /fields");
            assertServerSpans(traces, name -> name.equals("GET /fields"));
            assertThat(singleSpan(traceIdOf(traces, "GET /boom")).path("tags").path("error").asText())
                    .contains("IllegalStateException");
            JsonNode async = singleSpan(traceIdOf(traces, "GET /async"));
            assertThat(async.path("durationNanos").asLong()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);

            assertInboundContextHandled(traces);
            assertCountedOnce(service, metrics, 12);
        }
    }

    // ---- 2: inbound context is honoured at 0%

    @Test
    void joinsInboundSampledContextAtZeroPercent() throws Exception {
        String service = service("zero", JDK);
        try (AgentApp app = start(service, JDK, 0).start()) {
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
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    // ---- request state in real fields

    @Test
    void requestsCarryTheirStateInRealFields() throws Exception {
        String service = service("fields", JDK);
        try (AgentApp app = start(service, JDK, 100).start()) {
            int port = readyPort(app);
            assertThat(get(port, "/fields")).as("Jetty's request class implements FieldOwner").isEqualTo(200);
            assertThat(get(port, "/async")).isEqualTo(200);
            awaitServerMetrics(service, java.util.Map.of("GET /fields 200", 1L, "GET /async 200", 1L));
        }
    }

    // ---- 4: switched off

    @Test
    void recordsNothingWhenDisabled() throws Exception {
        verifyRecordsNothingWhenDisabled("jetty", plugins -> assertThat(plugins).isEmpty());
    }

    // ---- helpers

    static String jars(Path folder) {
        return folder.resolve("*").toString();
    }
}
