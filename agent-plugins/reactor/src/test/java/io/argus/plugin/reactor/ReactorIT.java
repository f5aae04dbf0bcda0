package io.argus.plugin.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.reactor.app.ReactorApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.File;
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
 * The plugin with Reactor Netty (server spans from the netty4-http-server plugin) and JDK HttpClient calls made
 * inside reactive chains (client spans from jdk-http-client), in a forked JVM with the agent at its defaults, on
 * JDK 17 and Temurin 25: a request whose handler calls the service twice through {@code Mono.zip},
 * {@code subscribeOn}, a {@code publishOn(boundedElastic)} hop and a {@code flatMap} is one trace with one root;
 * afterwards, untraced requests served by the same event-loop thread carry no context anywhere.
 */
class ReactorIT extends AbstractCollectorIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** Until the application answers: a JVM with Netty and the agent starting on a busy 2-core machine. */
    private static final Duration START = Duration.ofSeconds(90);
    private static final List<AgentApp> APPS = new ArrayList<>();

    @AfterAll
    static void stopApps() {
        APPS.forEach(AgentApp::close);
    }

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    /**
     * The test applications, Reactor, Reactor Netty and the Netty it runs on: {@link AgentApp#applicationClasspath}
     * leaves Netty out, as the agent's collector side uses it.
     */
    private static String classPath() throws Exception {
        String app = Path.of(ReactorApp.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        return Stream.concat(Stream.of(app), Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                        .filter(e -> e.contains("/io/netty/") || e.contains("/io/projectreactor/")
                                || e.contains("/org/reactivestreams/")))
                .collect(Collectors.joining(File.pathSeparator));
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void theContextFollowsTheChainAcrossOperatorsAndSchedulersAndNeverStaysOnAThread(String javaHome)
            throws Exception {
        String service = "reactor-" + jdkLabel(javaHome);
        AgentApp app = AgentApp.builder(ReactorApp.class.getName()).javaHome(javaHome).classpath(classPath())
                .service(service)
                .collector(collector.ingestPort()).logToTestLogs(service).start();
        APPS.add(app);
        String base = "http://127.0.0.1:" + app.awaitLine("^PORT (\\d+)$", START).group(1);

        String traceId = hex(32);
        String rootSpan = hex(16);
        HttpResponse<String> edge = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/edge"))
                .header("traceparent", "00-" + traceId + "-" + rootSpan + "-01").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(edge.statusCode()).isEqualTo(200);
        assertThat(edge.body()).isEqualTo("backend+backend+ok");

        // one root (the edge's SERVER span), three CLIENT spans under it, each backend's SERVER span under its call
        JsonNode trace = awaitTrace(traceId, 7);
        List<JsonNode> spans = list(trace.path("spans"));
        assertThat(spans).hasSize(7);
        JsonNode root = spans.stream().filter(s -> s.path("parentSpanId").asText().equalsIgnoreCase(rootSpan))
                .findFirst().orElseThrow();
        assertThat(root.path("kind").asText()).isEqualTo("SERVER");
        assertThat(root.path("tags").path("http.path").asText()).isEqualTo("/edge");
        List<JsonNode> clients = spans(trace, "CLIENT");
        assertThat(clients).hasSize(3)
                .allSatisfy(c -> assertThat(c.path("parentSpanId").asText()).isEqualTo(root.path("spanId").asText()));
        List<JsonNode> backends = spans(trace, "SERVER").stream()
                .filter(s -> s.path("tags").path("http.path").asText().equals("/backend")).toList();
        assertThat(backends).hasSize(2);
        List<String> clientIds = clients.stream().map(c -> c.path("spanId").asText()).toList();
        assertThat(backends).allSatisfy(b -> assertThat(clientIds).contains(b.path("parentSpanId").asText()));
        assertThat(app.awaitLine("^SIDECAR from=edge traceparent=00-" + traceId + "-[0-9a-f]{16}-01$", WAIT))
                .isNotNull();

        // the same event loop and schedulers then serve untraced requests: no context travels with their calls
        for (int n = 0; n < 20; n++) {
            assertThat(HTTP.send(HttpRequest.newBuilder(URI.create(base + "/probe?n=" + n)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        }
        app.awaitLine("^SIDECAR n=19 ", WAIT);
        assertThat(app.lines()).filteredOn(l -> l.startsWith("SIDECAR n=")).hasSize(20)
                .allSatisfy(l -> assertThat(l).endsWith("traceparent=null"));
        assertThat(agentGauge(service, "agent.advice.errors")).isZero();
    }

    @Test
    void withoutThePluginTheCallsMadeOnReactorsThreadsLoseTheTrace() throws Exception {
        String service = "reactor-off";
        AgentApp app = AgentApp.builder(ReactorApp.class.getName()).classpath(classPath()).service(service)
                .collector(collector.ingestPort()).logToTestLogs(service)
                .agent("argus.plugin.reactor.enabled", "false").start();
        APPS.add(app);
        String base = "http://127.0.0.1:" + app.awaitLine("^PORT (\\d+)$", START).group(1);
        String traceId = hex(32);
        HTTP.send(HttpRequest.newBuilder(URI.create(base + "/edge"))
                .header("traceparent", "00-" + traceId + "-" + hex(16) + "-01").build(),
                HttpResponse.BodyHandlers.ofString());
        app.awaitLine("^SIDECAR from=edge ", WAIT);
        awaitTrace(traceId, 1);
        awaitFlushAfter(service, System.currentTimeMillis());
        // the edge's own SERVER span only: its chain's calls ran on boundedElastic without the context
        assertThat(spans(api.trace(traceId), "CLIENT")).isEmpty();
        assertThat(app.lines()).anyMatch(l -> l.equals("SIDECAR from=edge traceparent=null"));
    }
}
