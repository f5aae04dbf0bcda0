package io.argus.plugin.netty4server;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractServerPluginIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against one real Netty 4 version: the test application (two HTTP servers on one event
 * loop thread) runs in a forked JVM with the assembled agent and that version's jars; the test drives
 * it over real HTTP (the JDK client, and raw sockets for pipelining and aborted requests) and
 * asserts only what the real collector in this JVM returns.
 */
abstract class AbstractNetty4ServerIT extends AbstractServerPluginIT {

    static final int ECHO_BYTES = 300_000;

    // more inbound trace ids, fresh per test: all runs of a class share one collector
    final String unsampledTrace = hex(32);
    final String pipe1Trace = hex(32);
    final String pipe3Trace = hex(32);

    /** The Netty version under test (a folder of target/netty4/). */
    abstract String version();

    // ---- 100%: spans, metrics, propagation, keep-alive, pipelining, streaming, errors

    @Test
    void recordsEveryRequestAt100Percent() throws Exception {
        recordsEveryRequestAt100Percent(JDK);
    }

    void recordsEveryRequestAt100Percent(String javaHome) throws Exception {
        String service = service("all", javaHome);
        try (AgentApp app = start(service, javaHome, 100).start()) {
            Ports ports = readyPorts(app, service);
            assertAgentInternalsHidden(app);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

            // first what must not be traced, so the spans awaited below prove its absence (FIFO export)
            Reply unsampled = get(http, ports.main, "/hello/unsampled", "traceparent", "00-" + unsampledTrace + "-" + w3cParent + "-00");
            assertThat(unsampled.status).isEqualTo(200);
            assertThat(unsampled.current).isEqualTo("none");
            List<Reply> basics = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                Reply r = get(http, ports.main, "/hello/basic?i=" + i);
                assertThat(r.status).isEqualTo(200);
                basics.add(r);
            }
            assertThat(get(http, ports.main, "/fail").status).isEqualTo(500);
            assertThat(get(http, ports.main, "/boom").status).isEqualTo(500);
            assertThat(get(http, ports.main, "/missing").status).isEqualTo(404);
            Reply malformed = get(http, ports.main, "/hello/malformed", "traceparent", "00-not-a-trace-id-01", "b3", "zz-yy-1");
            assertThat(malformed.status).isEqualTo(200);
            Reply w3c = get(http, ports.main, "/hello/w3c", "traceparent", "00-" + w3cTrace + "-" + w3cParent + "-01",
                    "tracestate", "vendor=1");
            assertThat(w3c.status).isEqualTo(200);
            long asyncStart = System.nanoTime();
            assertThat(get(http, ports.main, "/async").status).isEqualTo(200);
            assertThat(System.nanoTime() - asyncStart).isGreaterThanOrEqualTo(200_000_000L);
            // a body larger than one read, behind an "Expect: 100-continue" the aggregator answers
            HttpResponse<String> echo = http.send(HttpRequest.newBuilder(uri(ports.main, "/echo?big=1"))
                    .expectContinue(true).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[ECHO_BYTES])).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(echo.statusCode()).isEqualTo(200);
            assertThat(echo.body()).isEqualTo("echo-" + ECHO_BYTES);
            String echoCurrent = echo.headers().firstValue("x-current").orElse("?");
            // a chunked response written in parts over 300 ms, on the decoder + encoder pipeline
            Reply stream = get(http, ports.stream, "/stream");
            assertThat(stream.status).isEqualTo(200);
            assertThat(stream.body).isEqualTo("part1;part2;part3;");
            // three pipelined requests on one connection
            List<Reply> piped = pipelined(ports.main,
                    request("/hello/pipe1", "traceparent: 00-" + pipe1Trace + "-" + w3cParent + "-01"),
                    request("/hello/pipe2"),
                    request("/hello/pipe3", "traceparent: 00-" + pipe3Trace + "-" + w3cParent + "-01"));
            assertThat(piped).extracting(r -> r.status).containsExactly(200, 200, 200);
            // a request the application never answers: the connection is closed
            assertThat(pipelined(ports.main, request("/drop"))).isEmpty();
            // only now: the requests above went out as soon as the application answered
            assertThat(pluginsLoaded(app)).isEqualTo("netty4-http-server");

            Map<String, JsonNode> metrics = awaitServerMetrics(service, Map.ofEntries(
                    Map.entry("GET /hello/unsampled 200", 1L), Map.entry("GET /hello/basic 200", (long) N),
                    Map.entry("GET /fail 500", 1L), Map.entry("GET /boom 500", 1L), Map.entry("GET /missing 404", 1L),
                    Map.entry("GET /hello/malformed 200", 1L), Map.entry("GET /hello/w3c 200", 1L),
                    Map.entry("GET /async 200", 1L), Map.entry("POST /echo 200", 1L), Map.entry("GET /stream 200", 1L),
                    Map.entry("GET /hello/pipe1 200", 1L), Map.entry("GET /hello/pipe2 200", 1L),
                    Map.entry("GET /hello/pipe3 200", 1L), Map.entry("GET /drop 0", 1L)));
            assertThat(metrics.get("GET /hello/basic 200").path("errors").asLong()).isZero();
            assertThat(metrics.get("GET /fail 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /boom 500").path("errors").asLong()).isEqualTo(1);
            assertThat(metrics.get("GET /missing 404").path("errors").asLong()).isZero();
            assertThat(metrics.get("GET /async 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(200);
            assertThat(metrics.get("GET /stream 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(300);

            int traced = N + 12;
            List<JsonNode> traces = awaitTraces(service, traced);
            assertThat(rootNames(traces)).containsOnly("GET /hello/basic", "GET /fail", "GET /boom", "GET /missing",
                    "GET /hello/malformed", "GET /hello/w3c", "GET /async", "POST /echo", "GET /stream",
                    "GET /hello/pipe1", "GET /hello/pipe2", "GET /hello/pipe3", "GET /drop");
            assertThat(traces).hasSize(traced);
            for (JsonNode summary : traces) {
                String name = summary.path("rootName").asText();
                JsonNode trace = awaitSpans(summary.path("traceId").asText(),
                        name.startsWith("GET /hello") || name.startsWith("POST /echo") ? 2 : 1);
                JsonNode server = span(trace, "SERVER");
                int status = name.equals("GET /fail") || name.equals("GET /boom") ? 500
                        : name.equals("GET /missing") ? 404 : name.equals("GET /drop") ? 0 : 200;
                assertServerSpan(server, name.substring(0, name.indexOf(' ')), name.substring(name.indexOf(' ') + 1), status);
                if (name.startsWith("GET /hello") || name.startsWith("POST /echo")) {
                    // the handler ran with the server span current: its own call is a child of it
                    JsonNode clientSpan = span(trace, "CLIENT");
                    assertThat(clientSpan.path("parentSpanId").asText()).isEqualTo(server.path("spanId").asText());
                }
                if (!Set.of("GET /hello/w3c", "GET /hello/pipe1", "GET /hello/pipe3").contains(name)) {
                    assertThat(isRoot(server)).as("root span of %s", name).isTrue();
                }
            }
            // x-current: each request's handler saw its own span, on a shared event loop thread
            for (Reply r : basics) {
                assertCurrentIsServerSpan(r.current);
            }
            assertCurrentIsServerSpan(echoCurrent);
            assertCurrentIsServerSpan(stream.current);
            assertCurrentIsServerSpan(piped.get(1).current);
            JsonNode joined = span(awaitSpans(w3cTrace, 2), "SERVER");
            assertThat(joined.path("name").asText()).isEqualTo("GET /hello/w3c");
            assertThat(joined.path("parentSpanId").asText()).isEqualTo(w3cParent);
            assertThat(spanIdOf(w3c.current)).isEqualTo(joined.path("spanId").asText());
            for (String[] pipe : new String[][]{{pipe1Trace, piped.get(0).current}, {pipe3Trace, piped.get(2).current}}) {
                JsonNode server = span(awaitSpans(pipe[0], 2), "SERVER");
                assertThat(server.path("parentSpanId").asText()).isEqualTo(w3cParent);
                assertThat(pipe[1]).contains(pipe[0]);
                assertThat(spanIdOf(pipe[1])).isEqualTo(server.path("spanId").asText());
            }
            JsonNode async = span(awaitSpans(traceIdOf(traces, "GET /async"), 1), "SERVER");
            assertThat(async.path("durationNanos").asLong()).isGreaterThanOrEqualTo(200_000_000L);
            JsonNode streamed = span(awaitSpans(traceIdOf(traces, "GET /stream"), 1), "SERVER");
            assertThat(streamed.path("durationNanos").asLong()).isGreaterThanOrEqualTo(300_000_000L);
            assertThat(traceIdOf(traces, "GET /hello/malformed")).isNotIn(w3cTrace, unsampledTrace);
            JsonNode none = api.trace(unsampledTrace);
            assertThat(none == null || none.path("spans").isEmpty()).as("no span of the unsampled trace: %s", none).isTrue();

            // client calls made by the handlers: one per /hello or /echo request
            assertThat(clientCount(service, "downstream")).isEqualTo(N + 7);
            assertCountedOnce(service, metrics, traced);
        }
    }

    // ---- 0%: inbound sampled context is joined; nothing leaks from a traced request to the next

    @Test
    void joinsInboundSampledContextAtZeroPercentAndLeaksNothing() throws Exception {
        String service = service("zero", JDK);
        try (AgentApp app = start(service, JDK, 0).start()) {
            Ports ports = readyPorts(app, service);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (int i = 0; i < 3; i++) {
                assertThat(get(http, ports.main, "/hello/plain").current).isEqualTo("none");
            }
            Reply w3c = get(http, ports.main, "/hello/w3c", "traceparent", "00-" + w3cTrace + "-" + w3cParent + "-01");
            assertThat(w3c.current).contains(w3cTrace);
            // the next request on the same connection and event loop thread sees no context
            assertThat(get(http, ports.main, "/hello/after").current).isEqualTo("none");
            Reply b3 = get(http, ports.main, "/hello/b3", "b3", b3Trace + "-" + b3Span + "-1");
            assertThat(b3.current).contains(b3Trace);
            Reply b3Multi = get(http, ports.main, "/hello/b3multi", "X-B3-TraceId", b3MultiTrace, "X-B3-SpanId", b3MultiSpan,
                    "X-B3-Sampled", "1");
            assertThat(b3Multi.current).contains(b3MultiTrace);
            assertThat(get(http, ports.stream, "/stream").current).isEqualTo("none");
            List<Reply> piped = pipelined(ports.main,
                    request("/hello/pipe1", "traceparent: 00-" + pipe1Trace + "-" + w3cParent + "-01"),
                    request("/hello/pipe2"));
            assertThat(piped.get(0).current).contains(pipe1Trace);
            assertThat(piped.get(1).current).isEqualTo("none");
            // while a traced request waits for its (async) response, the event loop serves others untraced
            String asyncTrace = hex(32);
            var pending = http.sendAsync(HttpRequest.newBuilder(uri(ports.main, "/async"))
                            .header("traceparent", "00-" + asyncTrace + "-" + w3cParent + "-01").build(),
                    HttpResponse.BodyHandlers.ofString());
            Thread.sleep(50);
            assertThat(pipelined(ports.main, request("/hello/during")).get(0).current).isEqualTo("none");
            assertThat(pending.get().headers().firstValue("x-current").orElse("?")).contains(asyncTrace);
            assertJoined(asyncTrace, w3cParent, "/async", 1);

            assertJoined(w3cTrace, w3cParent, "/hello/w3c", 2);
            assertJoined(b3Trace, b3Span, "/hello/b3", 2);
            assertJoined(b3MultiTrace, b3MultiSpan, "/hello/b3multi", 2);
            assertJoined(pipe1Trace, w3cParent, "/hello/pipe1", 2);
            awaitServerMetrics(service, Map.of("GET /hello/plain 200", 3L, "GET /hello/w3c 200", 1L,
                    "GET /hello/after 200", 1L, "GET /hello/b3 200", 1L, "GET /hello/b3multi 200", 1L,
                    "GET /stream 200", 1L, "GET /hello/pipe1 200", 1L, "GET /hello/pipe2 200", 1L,
                    "GET /async 200", 1L, "GET /hello/during 200", 1L));
            // the untraced requests went first, so their spans would be stored by now
            assertThat(rootNames(list(api.traces(service, 100)))).containsExactlyInAnyOrder(
                    "GET /hello/w3c", "GET /hello/b3", "GET /hello/b3multi", "GET /hello/pipe1", "GET /async");
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    // ---- switched off

    @Test
    void recordsAndInstrumentsNothingWhenDisabled() throws Exception {
        String service = service("off", JDK);
        try (AgentApp app = start(service, JDK, 100).agent("argus.plugin.netty4-http-server.enabled", false).start()) {
            assertThat(pluginsLoaded(app)).isEmpty();
            Ports ports = readyPorts(app, service);
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (int i = 0; i < N; i++) {
                assertThat(get(http, ports.main, "/hello/basic").status).isEqualTo(200);
            }
            assertThat(get(http, ports.main, "/fail").status).isEqualTo(500);
            assertThat(get(http, ports.stream, "/stream").body).isEqualTo("part1;part2;part3;");
            assertThat(get(http, ports.main, "/hello/w3c", "traceparent", "00-" + w3cTrace + "-" + w3cParent + "-01").current)
                    .isEqualTo("none");
            awaitFlushAfter(service, System.currentTimeMillis());
            assertThat(api.traces(service, 100)).isEmpty();
            assertThat(serverMetrics(service)).isEmpty();
            assertThat(agentGauge(service, "agent.classes.transformed")).isZero();
        }
    }

    // ---- helpers: the application

    @Override
    protected String mainClass() {
        return "io.argus.plugin.netty4server.app.Netty4ServerApp";
    }

    @Override
    protected String classpath() {
        Path jars = Paths.get(System.getProperty("argus.test.netty4.jars"), version());
        assertThat(Files.isDirectory(jars)).as("jars of Netty %s in %s", version(), jars).isTrue();
        return System.getProperty("argus.test.netty4.app") + java.io.File.pathSeparator + jars.resolve("*");
    }

    @Override
    protected String servicePrefix() {
        return "netty4-" + version();
    }

    record Ports(int main, int stream) {
    }

    /**
     * The application's ports, once the agent is connected to the collector too: spans recorded
     * before that could be dropped by design, and the tests count every span.
     */
    static Ports readyPorts(AgentApp app, String service) {
        Matcher m = app.awaitLine("READY port=(\\d+) streamPort=(\\d+)", WAIT);
        CollectorClient.await("agent of " + service + " connected", WAIT, () -> api.agentConnected(service), connected -> connected);
        return new Ports(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    record Reply(int status, String current, String body) {
    }

    static URI uri(int port, String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + port + pathAndQuery);
    }

    static Reply get(HttpClient http, int port, String pathAndQuery, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(port, pathAndQuery)).timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(response.statusCode(), response.headers().firstValue("x-current").orElse("?"), response.body());
    }

    static String request(String pathAndQuery, String... headerLines) {
        StringBuilder b = new StringBuilder("GET ").append(pathAndQuery).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        for (String line : headerLines) {
            b.append(line).append("\r\n");
        }
        return b.append("\r\n").toString();
    }

    /** Writes all requests at once on one connection, then reads the responses until the server closes or all came. */
    static List<Reply> pipelined(int port, String... requests) throws IOException {
        List<Reply> replies = new ArrayList<>();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(String.join("", requests).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            for (int i = 0; i < requests.length; i++) {
                String statusLine = readLine(in);
                if (statusLine == null) {
                    break; // closed by the server
                }
                Map<String, String> headers = new HashMap<>();
                String line;
                while ((line = readLine(in)) != null && !line.isEmpty()) {
                    int colon = line.indexOf(':');
                    headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
                }
                byte[] body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
                replies.add(new Reply(Integer.parseInt(statusLine.split(" ")[1]), headers.getOrDefault("x-current", "?"),
                        new String(body, StandardCharsets.UTF_8)));
            }
        }
        return replies;
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                String s = line.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            line.write(c);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    // ---- helpers: the collector

    static long clientCount(String service, String host) {
        return list(api.httpMetrics(service)).stream()
                .filter(row -> row.path("kind").asText().equals("client") && row.path("target").asText().equals(host))
                .mapToLong(row -> row.path("count").asLong()).sum();
    }

    /** A trace once it holds {@code spans} spans, and no more. */
    static JsonNode awaitSpans(String traceId, int spans) {
        JsonNode trace = awaitTrace(traceId, spans);
        assertThat(trace.path("spans")).as("spans of trace %s", traceId).hasSize(spans);
        return trace;
    }

    /** {@code x-current} names a server span of the collector, the one of its own request. */
    static void assertCurrentIsServerSpan(String current) {
        assertThat(current).startsWith("00-");
        String traceId = current.split("-")[1];
        JsonNode server = span(awaitTrace(traceId, 1), "SERVER");
        assertThat(spanIdOf(current)).isEqualTo(server.path("spanId").asText());
    }

    static String spanIdOf(String traceparent) {
        return traceparent.split("-")[2];
    }

    /** The request to {@code path} joined the inbound trace, whose server span (of {@code spans} spans) is a child of the inbound parent. */
    static void assertJoined(String traceId, String parentSpanId, String path, int spans) {
        JsonNode server = span(awaitSpans(traceId, spans), "SERVER");
        assertServerSpan(server, "GET", path, 200);
        assertThat(server.path("parentSpanId").asText()).isEqualTo(parentSpanId);
    }
}
