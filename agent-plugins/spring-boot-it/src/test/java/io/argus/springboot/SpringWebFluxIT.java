package io.argus.springboot;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring WebFlux on Reactor Netty, Boot 3.5 and 4.0, with the agent and every plugin at their default settings: an
 * edge service whose controller calls a downstream service twice with WebClient ({@code Mono.zip}, the second call
 * after a {@code publishOn(boundedElastic)} hop). Each request sent with a sampled {@code traceparent}, as soon as the
 * edge answers, is one trace: a single root (the edge's SERVER span), two CLIENT spans under it, and under each the
 * downstream's SERVER span, all named by route template (an annotated controller's and a {@code RouterFunction}'s,
 * with the downstream's base path). The server metrics are keyed by route for traced and untraced requests alike,
 * errors included; a call given up by a timeout ends its CLIENT span as cancelled; untraced requests served afterwards
 * by the same event loop carry no context downstream. Each Boot version runs once with the edge on JDK 17 and the
 * downstream on Temurin 25, and once the other way round.
 */
class SpringWebFluxIT extends AbstractCollectorIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String MAIN = "io.argus.springboot.webflux.WebFluxApp";
    private static final int TRACED = 3;
    private static final int UNTRACED = 3;

    @Test
    void boot3() throws Exception {
        verify("boot3", JDK, ReactiveApps.otherJdk(), "");
    }

    @Test
    void boot4() throws Exception {
        verify("boot4", ReactiveApps.otherJdk(), JDK, "/shop");
    }

    private void verify(String boot, String edgeJdk, String downstreamJdk, String basePath) throws Exception {
        String edgeService = boot + "-webflux-edge-" + jdkLabel(edgeJdk);
        String downService = boot + "-webflux-downstream-" + jdkLabel(downstreamJdk);
        List<String> downArgs = basePath.isEmpty() ? List.of() : List.of("--spring.webflux.base-path=" + basePath);
        try (AgentApp down = ReactiveApps.app(boot, MAIN, downService, downstreamJdk, collector.ingestPort(),
                downArgs.toArray(new String[0])).start()) {
            String downUrl = "http://127.0.0.1:" + ReactiveApps.port(down) + basePath;
            // one event-loop thread: every request after the first is served by a thread that served a traced one
            try (AgentApp edge = ReactiveApps.app(boot, MAIN, edgeService, edgeJdk, collector.ingestPort(),
                    "--app.downstream=" + downUrl).jvmArg("-Dreactor.netty.ioWorkerCount=1").start()) {
                int port = ReactiveApps.port(edge);

                List<String> traceIds = new ArrayList<>();
                for (int n = 0; n < TRACED; n++) {
                    String traceId = hex(32);
                    String parent = hex(16);
                    traceIds.add(traceId);
                    assertThat(get(port, "/api/edge/" + n, "00-" + traceId + "-" + parent + "-01"))
                            .isEqualTo("item-" + n + "+price-" + n);
                    verifyTrace(traceId, parent, edgeService, downService, basePath);
                }
                for (int n = TRACED; n < TRACED + UNTRACED; n++) {
                    assertThat(get(port, "/api/edge/" + n, null)).isEqualTo("item-" + n + "+price-" + n);
                }
                // the untraced requests' downstream calls carried no context
                down.awaitLine("^PRICE item=" + (TRACED + UNTRACED - 1) + " ", WAIT);
                for (int n = TRACED; n < TRACED + UNTRACED; n++) {
                    assertThat(down.lines()).contains("ITEM id=" + n + " traceparent=null",
                            "PRICE item=" + n + " traceparent=null");
                }

                // a call given up after 200 ms: its CLIENT span ends, as cancelled, under the edge's span
                String impatient = hex(32);
                assertThat(get(port, "/api/impatient/1", "00-" + impatient + "-" + hex(16) + "-01")).isEqualTo("gave-up");
                JsonNode trace = awaitTrace(impatient, 3);
                JsonNode call = span(trace, "CLIENT");
                assertThat(call.path("status").asText()).isEqualTo("ERROR");
                assertThat(call.path("tags").path("error").asText()).endsWith("$Cancelled");
                JsonNode impatientEdge = spans(trace, "SERVER").stream()
                        .filter(s -> s.path("service").asText().equals(edgeService)).findFirst().orElseThrow();
                assertThat(call.path("parentSpanId").asText()).isEqualTo(impatientEdge.path("spanId").asText());
                assertThat(impatientEdge.path("name").asText()).isEqualTo("GET /api/impatient/{id}");
                // the downstream saw the connection close, under the cancelled call
                assertThat(spans(trace, "SERVER")).filteredOn(s -> s.path("service").asText().equals(downService))
                        .singleElement().satisfies(s -> assertThat(s.path("parentSpanId").asText())
                                .isEqualTo(call.path("spanId").asText()));

                // an error answered with 500 keeps its route
                assertThat(status(port, "/api/fail/7")).isEqualTo(500);

                // the metrics, by route template, traced and untraced
                int all = TRACED + UNTRACED;
                assertThat(awaitServerCount(edgeService, "/api/edge/{id}", 200, all)).isEqualTo(all);
                assertThat(awaitServerCount(edgeService, "/api/fail/{id}", 500, 1)).isEqualTo(1);
                assertThat(awaitServerCount(downService, basePath + "/api/items/{id}", 200, all)).isEqualTo(all);
                assertThat(awaitServerCount(downService, basePath + "/fn/prices/{item}", 200, all)).isEqualTo(all);
                JsonNode failRow = row(edgeService, "server", "/api/fail/{id}", 500);
                assertThat(failRow.path("errors").asLong()).isEqualTo(1);
                assertThat(serverTargets(edgeService)).allSatisfy(t -> assertThat(t).contains("{"));
                JsonNode client = CollectorClient.await("client metric of " + edgeService, WAIT,
                        () -> row(edgeService, "client", "127.0.0.1", 200), r -> r != null && r.path("count").asLong() >= 2L * all);
                assertThat(client.path("count").asLong()).isEqualTo(2L * all);

                assertThat(agentGauge(edgeService, "agent.advice.errors")).isZero();
                assertThat(agentGauge(downService, "agent.advice.errors")).isZero();
                assertThat(edge.awaitLine("\\[argus\\] .*plugins=\\[([^\\]]*)\\]", WAIT).group(1))
                        .contains("spring-webflux", "reactor-netty", "reactor", "netty4-http-server");
            }
        }
    }

    /** One trace: the edge's SERVER span alone at the root, two CLIENT calls under it, a downstream SERVER span under each. */
    private static void verifyTrace(String traceId, String parent, String edgeService, String downService, String basePath) {
        JsonNode trace = awaitTrace(traceId, 5);
        List<JsonNode> spans = list(trace.path("spans"));
        assertThat(spans).as("spans of %s", trace).hasSize(5);
        Set<String> ids = spans.stream().map(s -> s.path("spanId").asText()).collect(Collectors.toSet());
        List<JsonNode> roots = spans.stream().filter(s -> !ids.contains(s.path("parentSpanId").asText())).toList();
        assertThat(roots).as("roots of %s", trace).hasSize(1);
        JsonNode edge = roots.get(0);
        assertThat(edge.path("parentSpanId").asText()).isEqualToIgnoringCase(parent);
        assertThat(edge.path("kind").asText()).isEqualTo("SERVER");
        assertThat(edge.path("service").asText()).isEqualTo(edgeService);
        assertThat(edge.path("name").asText()).isEqualTo("GET /api/edge/{id}");

        List<JsonNode> calls = spans(trace, "CLIENT");
        assertThat(calls).hasSize(2).allSatisfy(c -> {
            assertThat(c.path("parentSpanId").asText()).isEqualTo(edge.path("spanId").asText());
            assertThat(c.path("service").asText()).isEqualTo(edgeService);
            assertThat(c.path("status").asText()).isNotEqualTo("ERROR");
        });
        Set<String> callIds = calls.stream().map(c -> c.path("spanId").asText()).collect(Collectors.toSet());
        List<JsonNode> downstream = spans(trace, "SERVER").stream().filter(s -> s != edge).toList();
        assertThat(downstream).hasSize(2).allSatisfy(s -> {
            assertThat(callIds).contains(s.path("parentSpanId").asText());
            assertThat(s.path("service").asText()).isEqualTo(downService);
        });
        assertThat(downstream).extracting(s -> s.path("name").asText())
                .containsExactlyInAnyOrder("GET " + basePath + "/api/items/{id}", "GET " + basePath + "/fn/prices/{item}");
        assertThat(downstream.stream().map(s -> s.path("parentSpanId").asText()).distinct()).hasSize(2);
    }

    private static String get(int port, String path, String traceparent) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response.body();
    }

    private static int status(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The count of (GET, route, status) once it reaches {@code count}. */
    private static long awaitServerCount(String service, String route, int status, long count) {
        return CollectorClient.await(route + " " + status + " of " + service, WAIT,
                () -> row(service, "server", route, status), r -> r != null && r.path("count").asLong() >= count)
                .path("count").asLong();
    }

    private static JsonNode row(String service, String kind, String target, int status) {
        for (JsonNode row : api.httpMetrics(service)) {
            if (kind.equals(row.path("kind").asText()) && "GET".equals(row.path("method").asText())
                    && target.equals(row.path("target").asText()) && row.path("status").asInt() == status) {
                return row;
            }
        }
        return null;
    }

    private static List<String> serverTargets(String service) {
        List<String> targets = new ArrayList<>();
        for (JsonNode row : api.httpMetrics(service)) {
            if ("server".equals(row.path("kind").asText())) {
                targets.add(row.path("target").asText());
            }
        }
        return targets;
    }
}
