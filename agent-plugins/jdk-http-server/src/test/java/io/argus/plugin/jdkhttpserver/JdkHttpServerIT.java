package io.argus.plugin.jdkhttpserver;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractServerPluginIT;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JDK's HttpServer in a forked JVM (JDK 17 and Temurin 25) with the assembled agent; every assertion
 * reads the collector's JSON API.
 */
class JdkHttpServerIT extends AbstractServerPluginIT {

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @Override
    protected String mainClass() {
        return "io.argus.plugin.jdkhttpserver.app.JdkHttpServerApp";
    }

    @Override
    protected String classpath() {
        return AgentApp.applicationClasspath();
    }

    @Override
    protected String servicePrefix() {
        return "jdk-http-server";
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("javaHomes")
    void recordsEveryRequestAt100Percent(String javaHome) throws Exception {
        String service = service("all", javaHome);
        try (AgentApp app = start(service, javaHome, 100).start()) {
            int port = readyPort(app);
            assertAgentInternalsHidden(app);

            sendBasicRequests(port);
            // only now: the requests above went out as soon as the application answered
            assertThat(pluginsLoaded(app)).isEqualTo("jdk-http-server");
            assertThat(get(port, "/child")).isEqualTo(200);

            Map<String, JsonNode> metrics = awaitServerMetrics(service, Map.of(
                    "GET /hello/basic 200", (long) N, "GET /fail 500", 1L, "GET /boom 500", 1L,
                    "GET /missing 404", 1L, "GET /hello/unsampled 200", 1L, "GET /hello/malformed 200", 1L,
                    "GET /hello/w3c 200", 1L, "GET /child 200", 1L));
            assertThat(metrics.get("GET /hello/basic 200").path("errors").asLong()).isZero();
            assertThat(metrics.get("GET /fail 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /boom 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /missing 404").path("errors").asLong()).isZero();

            // everything but the unsampled request: 5 + fail, boom, missing, malformed, w3c, child
            List<JsonNode> traces = awaitTraces(service, 11);
            assertServerSpans(traces, name -> name.equals("GET /child"));
            assertServerWithChild(traceIdOf(traces, "GET /child"), "/child");
            assertInboundContextHandled(traces);
            assertCountedOnce(service, metrics, 11);
        }
    }

    @Test
    void joinsInboundSampledContextAtZeroPercentAndLeavesNoContextBehind() throws Exception {
        String service = service("zero", JDK);
        try (AgentApp app = start(service, JDK, 0).start()) {
            int port = readyPort(app);
            assertThat(get(port, "/hello/basic")).isEqualTo(200);
            assertThat(get(port, "/hello/w3c", "traceparent", w3cSampled)).isEqualTo(200);
            // the one worker thread served the traced request: no context may be current now
            assertThat(get(port, "/ctx")).isEqualTo(200);
            assertJoined(w3cTrace, w3cParent, "/hello/w3c");
            awaitServerMetrics(service, Map.of("GET /hello/basic 200", 1L, "GET /hello/w3c 200", 1L, "GET /ctx 200", 1L));
            assertThat(api.traces(service, 100)).hasSize(1);
        }
    }

    @Test
    void recordsNothingWhenDisabled() throws Exception {
        String service = service("off", JDK);
        try (AgentApp app = start(service, JDK, 100).agent("argus.plugin.jdk-http-server.enabled", false).start()) {
            assertThat(pluginsLoaded(app)).isEmpty();
            int port = readyPort(app);
            assertThat(get(port, "/hello/basic")).isEqualTo(200);
            assertThat(get(port, "/boom")).isEqualTo(500);
            awaitFlushAfter(service, System.currentTimeMillis());
            assertThat(serverMetrics(service)).isEmpty();
            assertThat(agentGauge(service, "agent.classes.transformed")).isZero();
        }
    }
}
