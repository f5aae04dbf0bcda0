package io.argus.plugin.reactornetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.reactornetty.app.ReactorNettyClientApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plugin with Reactor Netty's own {@code HttpClient} and {@code HttpServer} (server spans from
 * netty4-http-server, the context through the chains from reactor), in a forked JVM with the agent at its defaults, on
 * JDK 17 and Temurin 25: a traced request's four client calls (answered, answered 500 after a scheduler hop, refused,
 * cancelled by a timeout) are CLIENT spans under its SERVER span, each ended with its outcome, the two that reached the
 * server with {@code traceparent}; untraced requests send none and are counted; with the plugin off there is no
 * CLIENT span.
 */
class ReactorNettyClientIT extends AbstractCollectorIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration START = Duration.ofSeconds(90);
    private static final List<AgentApp> APPS = new ArrayList<>();

    @AfterAll
    static void stopApps() {
        APPS.forEach(AgentApp::close);
    }

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    /** The test application, Reactor, Reactor Netty and Netty (which AgentApp's class path leaves out). */
    private static String classPath() throws Exception {
        String app = Path.of(ReactorNettyClientApp.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        return Stream.concat(Stream.of(app), Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                        .filter(e -> e.contains("/io/netty/") || e.contains("/io/projectreactor/")
                                || e.contains("/org/reactivestreams/")))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static AgentApp start(String service, String javaHome, boolean pluginOn) throws Exception {
        AgentApp.Builder builder = AgentApp.builder(ReactorNettyClientApp.class.getName()).javaHome(javaHome)
                .classpath(classPath()).service(service).collector(collector.ingestPort()).logToTestLogs(service);
        if (!pluginOn) {
            builder.agent("argus.plugin.reactor-netty.enabled", "false");
        }
        AgentApp app = builder.start();
        APPS.add(app);
        return app;
    }

    private static String edge(int port, String traceparent) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/edge"));
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void everyCallIsASpanEndedWithItsOutcome(String javaHome) throws Exception {
        String service = "reactor-netty-" + jdkLabel(javaHome);
        AgentApp app = start(service, javaHome, true);
        int port = Integer.parseInt(app.awaitLine("^PORT (\\d+)$", START).group(1));

        String traceId = hex(32);
        String parent = hex(16);
        assertThat(edge(port, "00-" + traceId + "-" + parent + "-01")).isEqualTo("backend+500+refused+gave-up");

        // the edge's SERVER span, four CLIENT spans under it, the /backend, /broken and /slow SERVER spans
        JsonNode trace = awaitTrace(traceId, 8);
        JsonNode edge = spans(trace, "SERVER").stream()
                .filter(s -> s.path("parentSpanId").asText().equalsIgnoreCase(parent)).findFirst().orElseThrow();
        List<JsonNode> calls = spans(trace, "CLIENT");
        assertThat(calls).hasSize(4).allSatisfy(c ->
                assertThat(c.path("parentSpanId").asText()).isEqualTo(edge.path("spanId").asText()));
        JsonNode backend = call(calls, "/backend");
        assertThat(backend.path("status").asText()).isNotEqualTo("ERROR");
        assertThat(backend.path("tags").path("http.status_code").asInt()).isEqualTo(200);
        JsonNode broken = call(calls, "/broken");
        assertThat(broken.path("tags").path("http.status_code").asInt()).isEqualTo(500);
        JsonNode slow = call(calls, "/slow");
        assertThat(slow.path("status").asText()).isEqualTo("ERROR");
        assertThat(slow.path("tags").path("error").asText()).endsWith("$Cancelled");
        JsonNode refused = calls.stream().filter(c -> !List.of(backend, broken, slow).contains(c)).findFirst().orElseThrow();
        assertThat(refused.path("status").asText()).isEqualTo("ERROR");
        assertThat(refused.path("tags").path("error").asText()).contains("Connect");
        // the servers that got the calls saw their CLIENT spans as parents
        for (JsonNode call : List.of(backend, broken)) {
            assertThat(spans(trace, "SERVER")).anySatisfy(s ->
                    assertThat(s.path("parentSpanId").asText()).isEqualTo(call.path("spanId").asText()));
        }
        assertThat(app.lines()).anyMatch(l -> l.matches("BACKEND traceparent=00-" + traceId + "-[0-9a-f]{16}-01"));

        // untraced requests afterwards, on the same event loop: no traceparent goes out, every call is counted
        for (int n = 0; n < 5; n++) {
            assertThat(edge(port, null)).isEqualTo("backend+500+refused+gave-up");
        }
        assertThat(app.lines()).filteredOn(l -> l.startsWith("BACKEND ")).hasSize(6)
                .filteredOn(l -> l.endsWith("traceparent=null")).hasSize(5);
        JsonNode ok = CollectorClient.await("client calls of " + service, WAIT,
                () -> row(service, 200), r -> r != null && r.path("count").asLong() >= 6);
        assertThat(ok.path("count").asLong()).isEqualTo(6);
        JsonNode failed = CollectorClient.await("failed calls of " + service, WAIT,
                () -> row(service, 500), r -> r != null && r.path("count").asLong() >= 6);
        assertThat(failed.path("errors").asLong()).isEqualTo(6);
        JsonNode none = CollectorClient.await("calls without a response of " + service, WAIT,
                () -> row(service, 0), r -> r != null && r.path("count").asLong() >= 12);
        assertThat(none.path("errors").asLong()).isEqualTo(12);
        assertThat(agentGauge(service, "agent.advice.errors")).isZero();
    }

    @Test
    void withThePluginOffThereIsNoClientSpan() throws Exception {
        String service = "reactor-netty-off";
        AgentApp app = start(service, JDK, false);
        int port = Integer.parseInt(app.awaitLine("^PORT (\\d+)$", START).group(1));
        String traceId = hex(32);
        edge(port, "00-" + traceId + "-" + hex(16) + "-01");
        awaitTrace(traceId, 1);
        awaitFlushAfter(service, System.currentTimeMillis());
        assertThat(spans(api.trace(traceId), "CLIENT")).isEmpty();
        assertThat(app.lines()).contains("BACKEND traceparent=null");
    }

    private static JsonNode call(List<JsonNode> calls, String path) {
        return calls.stream().filter(c -> c.path("tags").path("http.url").asText().endsWith(path)).findFirst()
                .orElseThrow(() -> new AssertionError("no call of " + path + " in " + calls));
    }

    /** The client metric row of 127.0.0.1 with this status. */
    private static JsonNode row(String service, int status) {
        for (JsonNode row : api.httpMetrics(service)) {
            if ("client".equals(row.path("kind").asText()) && "127.0.0.1".equals(row.path("target").asText())
                    && row.path("status").asInt() == status) {
                return row;
            }
        }
        return null;
    }
}
