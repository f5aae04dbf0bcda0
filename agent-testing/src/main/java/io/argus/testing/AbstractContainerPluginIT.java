package io.argus.testing;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server plugin whose test application serves the same endpoints in every container (the tomcat,
 * undertow and servlet plugins): {@code /hello} and {@code /hello/*} (200), {@code /fail} (500 set by
 * the application), {@code /boom} (the application throws), {@code /async} (completed
 * {@value #ASYNC_DELAY_MS} ms later on another thread), {@code /asyncdispatch} (dispatched back
 * {@value #ASYNC_DELAY_MS} ms later, which then makes a client span), {@code /child} (makes a client
 * span through the bridge, as an HTTP client plugin would), {@code /ctx} (200 when no trace context is
 * current, 409 otherwise); anything else 404. One worker thread serves every request, so a trace
 * context left behind by one request would be seen by the next. The scenarios below are shared; each
 * plugin's IT says which of them it runs.
 */
public abstract class AbstractContainerPluginIT extends AbstractServerPluginIT {

    protected final String asyncTrace = hex(32);

    /** {@link #sendBasicRequests}, then {@code /async}, {@code /asyncdispatch} and {@code /child}. */
    protected void sendEveryEndpoint(int port) throws Exception {
        sendBasicRequests(port);
        long asyncStart = System.nanoTime();
        assertThat(get(port, "/async")).isEqualTo(200);
        assertThat(get(port, "/asyncdispatch")).isEqualTo(200);
        assertThat(System.nanoTime() - asyncStart).isGreaterThanOrEqualTo(2 * ASYNC_DELAY_MS * 1_000_000);
        assertThat(get(port, "/child")).isEqualTo(200);
    }

    /**
     * At 100%: every request is one server span and one count, an inbound sampled context is joined, an
     * unsampled or malformed one is not, async requests end when they complete, client spans are children.
     *
     * @param plugin             the only plugin the agent must have loaded
     * @param classesTransformed how many classes the plugin transforms
     */
    protected void verifyRecordsEveryRequest(String service, AgentApp.Builder application, String plugin,
                                             int classesTransformed) throws Exception {
        try (AgentApp app = application.start()) {
            assertThat(pluginsLoaded(app)).isEqualTo(plugin);
            int port = readyPort(app);
            assertAgentInternalsHidden(app);

            sendEveryEndpoint(port);

            Map<String, JsonNode> metrics = awaitServerMetrics(service, Map.of(
                    "GET /hello/basic 200", (long) N, "GET /fail 500", 1L, "GET /boom 500", 1L,
                    "GET /missing 404", 1L, "GET /hello/unsampled 200", 1L, "GET /hello/malformed 200", 1L,
                    "GET /hello/w3c 200", 1L, "GET /async 200", 1L, "GET /asyncdispatch 200", 1L, "GET /child 200", 1L));
            assertBasicMetrics(metrics);
            assertThat(metrics.get("GET /missing 404").path("errors").asLong()).isZero();
            assertThat(metrics.get("GET /asyncdispatch 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);

            List<JsonNode> traces = awaitTraces(service, 13);
            assertThat(rootNames(traces)).containsExactlyInAnyOrder(
                    "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic",
                    "GET /fail", "GET /boom", "GET /missing", "GET /hello/malformed", "GET /hello/w3c", "GET /async",
                    "GET /asyncdispatch", "GET /child");
            // the two with a client span under the server span are checked below
            assertServerSpans(traces, name -> name.equals("GET /child") || name.equals("GET /asyncdispatch"));
            assertThat(singleSpan(traceIdOf(traces, "GET /boom")).path("tags").path("error").asText())
                    .contains("IllegalStateException");
            assertThat(singleSpan(traceIdOf(traces, "GET /async")).path("durationNanos").asLong())
                    .isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);
            // the client spans are children of the server span: on the request thread, and in the async dispatch
            assertServerWithChild(traceIdOf(traces, "GET /child"), "/child");
            JsonNode dispatched = assertServerWithChild(traceIdOf(traces, "GET /asyncdispatch"), "/asyncdispatch");
            assertThat(dispatched.path("durationNanos").asLong()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);

            assertInboundContextHandled(traces);
            assertCountedOnce(service, metrics, 13);
            assertThat(agentGauge(service, "agent.classes.transformed")).isEqualTo(classesTransformed);
        }
    }

    /**
     * At 0%: only requests with a sampled inbound context (W3C, B3, B3 multi) are traced; no context is
     * left on the worker thread.
     *
     * @param agentKeyValues agent settings of the run, key then value
     */
    protected void verifyJoinsInboundSampledContextAtZeroPercent(String... agentKeyValues) throws Exception {
        String service = service(agentKeyValues.length == 0 ? "zero" : "zero-set", JDK);
        try (AgentApp app = start(service, JDK, 0).agentSettings(agentKeyValues).start()) {
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
}
