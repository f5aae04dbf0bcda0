package io.argus.plugin.urlconnection;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.urlconnection.app.UrlConnectionApp;
import io.argus.testing.AbstractClientPluginIT;
import io.argus.testing.AgentApp;
import io.argus.testing.ClientAppRun;
import io.argus.testing.TraceContext;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against the real {@code HttpURLConnection} / {@code HttpsURLConnection} of each test
 * JDK: one application JVM per (JDK, plugin on/off), with the real agent, real HTTP and HTTPS
 * servers inside it and a real collector in this JVM. Each run is started once and shared by the
 * tests that read it.
 */
class HttpUrlConnectionIT extends AbstractClientPluginIT {

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    private static ClientAppRun enabled(String javaHome) {
        return launch("urlconn-" + jdkLabel(javaHome), UrlConnectionApp.class.getName(), javaHome, null, Map.of()).done();
    }

    private static ClientAppRun disabled(String javaHome) {
        return launch("urlconn-off-" + jdkLabel(javaHome), UrlConnectionApp.class.getName(), javaHome, null,
                Map.of("argus.plugin.http-url-connection.enabled", "false")).done();
    }

    /**
     * The call tagged {@code tag} made under a hand-made server span: its trace holds exactly that
     * span and one client span under it, and the downstream server received the client span's id.
     */
    private static JsonNode assertTracedCall(ClientAppRun run, String tag, String method, String url, String peer) {
        TraceContext root = run.root(tag);
        JsonNode trace = awaitTrace(root, 2);
        assertThat(trace.path("spans")).hasSize(2);
        assertThat(span(trace, "SERVER").path("spanId").asText()).isEqualToIgnoringCase(root.spanId());
        JsonNode clientSpan = span(trace, "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("name").asText()).isEqualTo(method + " " + peer.substring(0, peer.indexOf(':')));
        JsonNode tags = clientSpan.path("tags");
        assertThat(tags.path("http.method").asText()).isEqualTo(method);
        assertThat(tags.path("http.url").asText()).isEqualTo(url);
        assertThat(tags.path("peer").asText()).isEqualTo(peer);
        if (run.has("RECEIVED", tag)) {
            TraceContext received = TraceContext.parse(run.receivedTraceparent(tag));
            assertThat(received).as("traceparent received for %s", tag).isNotNull();
            assertThat(received.traceId()).isEqualTo(root.traceId());
            assertThat(received.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
            assertThat(run.first("RECEIVED", tag).get("x-test")).isEqualTo(tag);
        }
        return clientSpan;
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void getResponseCodeFirstIsOneClientSpanWhoseTraceparentReachesTheServer(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        JsonNode span = assertTracedCall(run, "traced", "GET",
                "http://127.0.0.1:" + run.port() + "/ok?tag=traced", "127.0.0.1:" + run.port());
        assertThat(span.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(span.path("status").asText()).isNotEqualTo("ERROR");
        assertThat(run.first("RECEIVED", "traced").get("traceparent")).endsWith("-01");
        assertThat(run.first("STATUS", "traced").get("body")).isEqualTo("hello-traced");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void postStartsAtGetOutputStreamAndExplicitConnectStartsAtConnect(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        JsonNode post = assertTracedCall(run, "post-traced", "POST",
                "http://127.0.0.1:" + run.port() + "/ok?tag=post-traced", "127.0.0.1:" + run.port());
        assertThat(post.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(run.first("RECEIVED", "post-traced").get("method")).isEqualTo("POST");
        assertThat(run.first("RECEIVED", "post-traced").get("body")).isEqualTo("body-post-traced");

        JsonNode connect = assertTracedCall(run, "connect-traced", "GET",
                "http://127.0.0.1:" + run.port() + "/ok?tag=connect-traced", "127.0.0.1:" + run.port());
        assertThat(connect.path("tags").path("http.status_code").asText()).isEqualTo("200");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void httpsConnectionsAreTracedThroughTheSameCode(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        JsonNode span = assertTracedCall(run, "https-traced", "GET",
                "https://localhost:" + run.serverPort("httpsPort") + "/ok?tag=https-traced", "localhost:" + run.serverPort("httpsPort"));
        assertThat(span.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(run.first("STATUS", "https-traced").get("body")).isEqualTo("hello-https-traced");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void inboundTracestateIsPassedOn(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        assertTracestatePassedOn(run, "tracestate");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void refusedConnectionsAreErrorSpansAndCallersGetTheSameExceptionsAsWithoutThePlugin(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        String refused = "http://127.0.0.1:" + run.closedPort();
        for (String tag : List.of("refused-traced", "connect-refused-traced")) {
            JsonNode span = assertTracedCall(run, tag, "GET", refused + "/refused?tag=" + tag,
                    "127.0.0.1:" + run.closedPort());
            assertThat(span.path("status").asText()).as(tag).isEqualTo("ERROR");
            assertThat(span.path("tags").path("error").asText()).as(tag).contains("ConnectException");
            assertThat(run.has("RECEIVED", tag)).isFalse();
        }

        ClientAppRun baseline = disabled(javaHome);
        for (String tag : List.of("refused-traced", "connect-refused-traced", "refused-plain", "missing")) {
            Map<String, String> error = run.first("ERROR", tag);
            assertThat(error.get("class")).as(tag).isEqualTo(baseline.first("ERROR", tag).get("class"));
            assertThat(error.get("message")).as(tag).isEqualTo(baseline.first("ERROR", tag).get("message")
                    .replace(":" + baseline.port() + "/", ":" + run.port() + "/"));
        }
        assertThat(run.first("ERROR", "refused-plain").get("class")).isEqualTo("java.net.ConnectException");
        assertThat(run.first("ERROR", "missing").get("class")).isEqualTo("java.io.FileNotFoundException");
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void everyRequestIsCountedExactlyOnce(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        awaitAllMetricsStored(run);

        List<JsonNode> rows = clientRows(run, "127.0.0.1");
        // traced, explicit connect(), the plain GETs and the one under an inbound tracestate
        assertRow(rows, "GET", 200, 1 + 1 + UrlConnectionApp.PLAIN_CALLS + 1, 0);
        // buffered and streamed bodies
        JsonNode post = row(rows, "POST", 200);
        assertThat(post).as("POST 127.0.0.1 200 in %s", rows).isNotNull();
        assertThat(post.path("count").asLong()).isEqualTo(2);
        // refused in getResponseCode() (traced), in connect() (traced) and in getInputStream()
        assertRow(rows, "GET", 0, 3, 3);
        // getResponseCode(), getErrorStream() and a getInputStream() that throws: still one request
        assertRow(rows, "GET", 404, 1, 1);
        assertThat(rows).as("no other client rows for 127.0.0.1").hasSize(4);

        List<JsonNode> https = clientRows(run, "localhost");
        assertThat(https).hasSize(1);
        assertThat(row(https, "GET", 200).path("count").asLong()).isEqualTo(2);

        // served by a ResponseCache: recorded once, with the cached status
        List<JsonNode> cached = clientRows(run, "cache.invalid");
        assertThat(cached).hasSize(1);
        assertThat(row(cached, "GET", 200).path("count").asLong()).isEqualTo(1);
        assertThat(run.first("STATUS", "cached").get("body")).isEqualTo("hello-cached");
        assertThat(run.has("RECEIVED", "cached")).isFalse();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(String javaHome) {
        ClientAppRun run = enabled(javaHome);
        List<String> plainTags = new ArrayList<>(List.of("post-stream", "missing", "https-plain"));
        for (int i = 0; i < UrlConnectionApp.PLAIN_CALLS; i++) {
            plainTags.add("plain" + i);
        }
        for (String tag : plainTags) {
            assertThat(run.receivedTraceparent(tag)).as(tag).isNull();
            assertThat(run.first("RECEIVED", tag).get("tracestate")).as(tag).isEqualTo("null");
            assertThat(run.first("RECEIVED", tag).get("x-test")).as(tag).isEqualTo(tag);
        }
        assertThat(run.first("RECEIVED", "post-stream").get("body")).isEqualTo("body-post-stream");
        awaitAllMetricsStored(run);
        List<String> urls = clientUrls(run);
        assertThat(urls).hasSize(7); // traced, post, connect, 2 refused, tracestate, https
        for (String tag : plainTags) {
            assertThat(urls).noneMatch(url -> url.endsWith("tag=" + tag));
        }
        assertThat(urls).noneMatch(url -> url.endsWith("tag=refused-plain"));
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void disabledPluginRecordsNothingAndCallsStillWork(String javaHome) {
        ClientAppRun run = disabled(javaHome);
        for (String tag : List.of("traced", "post-traced", "connect-traced", "plain0", "post-stream", "tracestate",
                "https-traced", "https-plain")) {
            assertThat(run.first("STATUS", tag).get("code")).as(tag).isEqualTo("200");
            assertThat(run.receivedTraceparent(tag)).as(tag).isNull();
        }
        assertThat(run.first("STATUS", "missing").get("code")).isEqualTo("404");
        // the agent itself reports (the hand-made server spans), the plugin adds nothing
        assertNoClientRecorded(run, "traced");
    }
}
