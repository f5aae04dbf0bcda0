package io.argus.plugin.jettyclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.ClientAppRun;
import io.argus.testing.CollectorClient;
import io.argus.testing.TraceContext;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jetty 9.4 as Apache Druid 33 ships it: the client scenarios, the same at 0% sampling, and the
 * router's pattern: a request through Jetty's {@code AsyncProxyServlet} to a servlet on another
 * Jetty server is one trace, proxy server span, then client span, then backend server span (the
 * server spans come from the jetty plugin, which the test agent also holds).
 */
class Jetty9IT extends AbstractJettyClientIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    String version() {
        return System.getProperty("argus.test.jetty9");
    }

    @Override
    String mainClass() {
        return "io.argus.plugin.jettyclient.app.Jetty9ClientApp";
    }

    @Override
    String appClasses() {
        return System.getProperty("argus.test.jetty9.app");
    }

    @Test
    void atZeroPercentOnlyTheSampledInboundContextIsPropagatedAndEveryCallIsCounted() {
        ClientAppRun run = run("zero", JDK, 0, Map.of());
        for (String tag : List.of("traced", "async-traced", "plain0", "aplain0", "conc0_0", "conc0_1")) {
            assertThat(run.receivedTraceparent(tag)).as(tag).isNull();
        }
        assertThat(run.root("traced")).isNull();
        assertInboundContextFollowed(run, "tracestate");
        assertCounts(run);
    }

    @Test
    void aRequestThroughTheProxyServletIsOneTraceServerThenClientThenBackendServer() throws Exception {
        ClientAppRun run = run("proxy", JDK, 100, Map.of(), "proxy");
        int proxyPort = Integer.parseInt(run.first("PROXY", null).get("port"));
        int backendPort = Integer.parseInt(run.first("PROXY", null).get("backendPort"));

        // 1. no inbound context: the proxy's server span is the root
        assertThat(get(proxyPort, "/proxied/a?tag=p1").body()).isEqualTo("backend-p1");
        TraceContext sent = TraceContext.parse(run.awaitLine("BACKEND", "p1").get("traceparent"));
        JsonNode trace = awaitTrace(sent, 3);
        List<JsonNode> servers = spans(trace, "SERVER");
        JsonNode clientSpan = span(trace, "CLIENT");
        JsonNode proxy = servers.stream().filter(s -> isRoot(s)).findFirst().orElseThrow();
        JsonNode backend = servers.stream().filter(s -> !isRoot(s)).findFirst().orElseThrow();
        assertThat(proxy.path("name").asText()).isEqualTo("GET /proxied/a");
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualTo(proxy.path("spanId").asText());
        assertThat(clientSpan.path("name").asText()).isEqualTo("GET 127.0.0.1");
        assertThat(clientSpan.path("tags").path("http.url").asText()).isEqualTo("http://127.0.0.1:" + backendPort + "/proxied/a?tag=p1");
        assertThat(clientSpan.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(clientSpan.path("spanId").asText()).isEqualToIgnoringCase(sent.spanId());
        assertThat(backend.path("name").asText()).isEqualTo("GET /proxied/a");
        assertThat(backend.path("parentSpanId").asText()).isEqualTo(clientSpan.path("spanId").asText());

        // 2. an inbound sampled context: joined by the proxy; the traceparent the proxy servlet copies
        //    to the upstream request is replaced by the client span's
        String traceId = hex(32);
        String parentId = hex(16);
        assertThat(get(proxyPort, "/proxied/b?tag=p2", "traceparent", "00-" + traceId + "-" + parentId + "-01").statusCode())
                .isEqualTo(200);
        TraceContext forwarded = TraceContext.parse(run.awaitLine("BACKEND", "p2").get("traceparent"));
        assertThat(forwarded.traceId()).isEqualTo(traceId);
        assertThat(forwarded.spanId()).isNotEqualTo(parentId);
        JsonNode joined = awaitTrace(forwarded, 3);
        JsonNode joinedClient = span(joined, "CLIENT");
        assertThat(joinedClient.path("spanId").asText()).isEqualToIgnoringCase(forwarded.spanId());
        JsonNode joinedProxy = spans(joined, "SERVER").stream()
                .filter(s -> s.path("parentSpanId").asText().equals(parentId)).findFirst().orElseThrow();
        assertThat(joinedClient.path("parentSpanId").asText()).isEqualTo(joinedProxy.path("spanId").asText());

        // 3. an error from the backend is the client span's, and the caller gets it
        assertThat(get(proxyPort, "/proxied/fail?tag=p3").statusCode()).isEqualTo(500);
        TraceContext failed = TraceContext.parse(run.awaitLine("BACKEND", "p3").get("traceparent"));
        JsonNode failedClient = span(awaitTrace(failed, 3), "CLIENT");
        assertThat(failedClient.path("status").asText()).isEqualTo("ERROR");
        assertThat(failedClient.path("tags").path("http.status_code").asText()).isEqualTo("500");

        // every proxied request is counted once by the client (and once by each server)
        CollectorClient.await("client metrics of the proxy", WAIT, () -> clientRows(run, "127.0.0.1"),
                rows -> row(rows, "GET", 200) != null && row(rows, "GET", 200).path("count").asLong() == 2
                        && row(rows, "GET", 500) != null && row(rows, "GET", 500).path("count").asLong() == 1);
        long before = System.currentTimeMillis();
        CollectorClient.await("a later metrics flush", WAIT, () -> latestFlush(run.service), t -> t > before + 1000);
        List<JsonNode> rows = clientRows(run, null);
        assertThat(rows).hasSize(2);
        assertRow(rows, "GET", 200, 2, 0);
        assertRow(rows, "GET", 500, 1, 1);
        assertThat(agentGauge(run.service, "agent.advice.errors")).isZero();
    }

    private static HttpResponse<String> get(int port, String pathAndQuery, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
                .timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
