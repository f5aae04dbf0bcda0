package io.argus.plugin.apachehttpclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.apachehttpclient.AppRun.TraceContext;
import io.argus.plugin.apachehttpclient.app.Hc5AsyncApp;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HttpClient 5 async client ({@code CloseableHttpAsyncClient}) against real releases: the oldest
 * and newest tested 5.x on JDK 17, the newest also on Temurin 25 when it is installed, and the newest
 * with the plugin switched off. The application ({@link Hc5AsyncApp}) calls a real downstream server in
 * its own JVM, which prints the trace headers it receives; the agent reports to a real collector here.
 * The plugin's helper classes are defined in the application's class loader by the engine, so these
 * runs also test that on both JDKs.
 */
class ApacheHttpAsyncClientIT {

    private static TestCollector collector;
    private static CollectorClient client;
    private static final Map<String, AppRun> RUNS = new ConcurrentHashMap<>();

    /** Calls made under a span: one CLIENT span each (the chained call makes two). */
    private static final List<String> TRACED = List.of("async-traced", "async-user-header", "async-reuse",
            "async-producer", "async-redirect", "async-fail", "async-minimal", "async-chain", "async-cancel",
            "async-refused-traced", "async-tracestate");
    private static final int CLIENT_SPANS = TRACED.size() + 1;
    /**
     * 200s: traced, user-header, reuse x2, producer, redirect, minimal, chain and its inner call,
     * nocallback, tracestate, and the plain calls.
     */
    private static final int OK_CALLS = 11 + Hc5AsyncApp.PLAIN_CALLS;

    record Variant(String name, String libs, String javaHome) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Variant> variants() {
        String jdk17 = System.getProperty("java.home");
        List<Variant> variants = new ArrayList<>();
        variants.add(variant(System.getProperty("argus.test.hc5.oldest"), jdk17));
        variants.add(variant(System.getProperty("argus.test.hc5.newest"), jdk17));
        for (String home : AgentApp.javaHomes()) {
            if (!home.equals(jdk17)) {
                variants.add(variant(System.getProperty("argus.test.hc5.newest"), home));
            }
        }
        return variants;
    }

    static List<Variant> newest() {
        return List.of(variant(System.getProperty("argus.test.hc5.newest"), System.getProperty("java.home")));
    }

    private static Variant variant(String libs, String javaHome) {
        return new Variant(libs + "-async-" + AppRun.label(javaHome), libs, javaHome);
    }

    @BeforeAll
    static void startCollectorAndApplications() {
        collector = TestCollector.start();
        client = collector.client();
        variants().forEach(ApacheHttpAsyncClientIT::launchEnabled);
        newest().forEach(ApacheHttpAsyncClientIT::launchDisabled);
    }

    @AfterAll
    static void stopAll() {
        RUNS.values().forEach(AppRun::close);
        if (collector != null) {
            collector.close();
        }
    }

    private static AppRun launchEnabled(Variant v) {
        return RUNS.computeIfAbsent("on " + v.name(), k -> AppRun.start(Hc5AsyncApp.class.getName(), v.libs(),
                v.javaHome(), "ahc-" + v.name(), collector.ingestPort(), Map.of()));
    }

    private static AppRun launchDisabled(Variant v) {
        return RUNS.computeIfAbsent("off " + v.name(), k -> AppRun.start(Hc5AsyncApp.class.getName(), v.libs(),
                v.javaHome(), "ahc-off-" + v.name(), collector.ingestPort(),
                Map.of("argus.plugin.apache-httpclient.enabled", "false")));
    }

    private static AppRun enabled(Variant v) {
        return launchEnabled(v).done();
    }

    private static AppRun disabled(Variant v) {
        return launchDisabled(v).done();
    }

    private static JsonNode awaitTrace(TraceContext root, int spans) {
        return CollectorClient.await("trace " + root.traceId() + " with " + spans + " spans", AppRun.WAIT,
                () -> client.trace(root.traceId()), t -> t.path("spans").size() >= spans);
    }

    private static List<JsonNode> spans(JsonNode trace, String kind) {
        List<JsonNode> found = new ArrayList<>();
        trace.path("spans").forEach(span -> {
            if (kind.equals(span.path("kind").asText())) {
                found.add(span);
            }
        });
        return found;
    }

    /** The CLIENT span of the call tagged {@code tag}: the only child of its hand-made root span. */
    private static JsonNode clientSpan(AppRun run, String tag) {
        TraceContext root = run.root(tag);
        JsonNode trace = awaitTrace(root, 2);
        assertThat(trace.path("spans")).as("spans of %s", tag).hasSize(2);
        assertThat(spans(trace, "SERVER")).singleElement()
                .satisfies(server -> assertThat(server.path("spanId").asText()).isEqualToIgnoringCase(root.spanId()));
        List<JsonNode> clients = spans(trace, "CLIENT");
        assertThat(clients).as("client spans of %s", tag).hasSize(1);
        assertThat(clients.get(0).path("parentSpanId").asText()).as("parent of %s", tag).isEqualToIgnoringCase(root.spanId());
        return clients.get(0);
    }

    /** The downstream server received the client span itself as its parent. */
    private static void assertReceivedFrom(Map<String, String> received, TraceContext root, JsonNode clientSpan) {
        TraceContext context = TraceContext.parse(AppRun.value(received, "traceparent"));
        assertThat(context).as("traceparent received in %s", received).isNotNull();
        assertThat(context.traceId()).isEqualTo(root.traceId());
        assertThat(context.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        assertThat(received.get("traceparent")).endsWith("-01");
    }

    private static String message(AppRun run, String tag) {
        return run.first("ERROR", tag).get("message").replace(String.valueOf(run.closedPort), "<port>");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void tracedCallIsAClientSpanUnderTheCurrentSpanAndItsTraceparentReachesTheServer(Variant v) {
        AppRun run = enabled(v);
        for (String tag : List.of("async-traced", "async-producer", "async-minimal", "async-user-header", "async-reuse",
                "async-tracestate")) {
            JsonNode clientSpan = clientSpan(run, tag);
            assertThat(clientSpan.path("name").asText()).isEqualTo("GET 127.0.0.1");
            assertThat(clientSpan.path("status").asText()).as(tag).isNotEqualTo("ERROR");
            JsonNode tags = clientSpan.path("tags");
            assertThat(tags.path("http.method").asText()).isEqualTo("GET");
            assertThat(tags.path("http.url").asText()).isEqualTo("http://127.0.0.1:" + run.port + "/ok?tag=" + tag);
            assertThat(tags.path("peer").asText()).isEqualTo("127.0.0.1:" + run.port);
            assertThat(tags.path("http.status_code").asText()).as(tag).isEqualTo("200");

            Map<String, String> received = run.first("RECEIVED", tag);
            assertReceivedFrom(received, run.root(tag), clientSpan);
            assertThat(received.get("x-test")).as("the application's own header").isEqualTo(tag);
            assertThat(run.first("STATUS", tag).get("code")).isEqualTo("200");
            assertThat(run.first("STATUS", tag).get("body")).isEqualTo("hello-" + tag);
        }
        assertThat(run.first("RECEIVED", "async-tracestate").get("tracestate")).isEqualTo("vendor=argus");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theContextIsTheCallersInItsCallbackAndUnchangedOnTheCallingThread(Variant v) {
        AppRun run = enabled(v);
        for (String tag : List.of("async-traced", "async-producer", "async-minimal", "async-fail", "async-refused-traced")) {
            assertThat(run.first("CALLER", tag).get("context")).as("caller of %s", tag).isEqualTo("same");
            assertThat(run.first("CALLBACK", tag).get("context")).as("callback of %s", tag).isEqualTo("same");
            assertThat(run.first("CALLBACK", tag).get("thread")).as("callback of %s", tag).isNotEqualTo("main");
        }
        assertThat(run.first("CALLBACK", "async-cancel").get("context")).isEqualTo("same");
        // untraced calls leave no context on the reactor's threads
        for (String tag : List.of("async-plain0", "async-missing", "async-refused-plain")) {
            assertThat(run.first("CALLER", tag).get("context")).as(tag).isEqualTo("none");
            assertThat(run.first("CALLBACK", tag).get("context")).as(tag).isEqualTo("none");
        }
        // a call made from a callback, on the I/O thread, is a child of the same parent
        TraceContext root = run.root("async-chain");
        JsonNode trace = awaitTrace(root, 3);
        assertThat(trace.path("spans")).hasSize(3);
        List<JsonNode> clients = spans(trace, "CLIENT");
        assertThat(clients).hasSize(2).allSatisfy(span ->
                assertThat(span.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId()));
        assertThat(clients).extracting(span -> span.path("tags").path("http.url").asText())
                .containsExactlyInAnyOrder("http://127.0.0.1:" + run.port + "/ok?tag=async-chain",
                        "http://127.0.0.1:" + run.port + "/ok?tag=async-chain-inner");
        assertThat(run.first("CALLBACK", "async-chain-inner").get("context")).isEqualTo("same");
        for (JsonNode span : clients) {
            String tag = span.path("tags").path("http.url").asText().replaceAll(".*tag=", "");
            assertReceivedFrom(run.first("RECEIVED", tag), root, span);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theRequestObjectIsLeftAsTheApplicationMadeIt(Variant v) {
        AppRun run = enabled(v);
        assertThat(AppRun.value(run.first("AFTERCALL", "async-traced"), "traceparent")).isNull();
        assertThat(AppRun.value(run.first("AFTERCALL", "async-traced"), "tracestate")).isNull();
        // the application's own trace headers: replaced on the wire, untouched on its object
        Map<String, String> received = run.first("RECEIVED", "async-user-header");
        assertThat(TraceContext.parse(received.get("traceparent")).traceId()).isEqualTo(run.root("async-user-header").traceId());
        assertThat(AppRun.value(received, "tracestate")).as("the replaced context's tracestate").isNull();
        Map<String, String> after = run.first("AFTERCALL", "async-user-header");
        assertThat(after.get("traceparent")).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(after.get("tracestate")).isEqualTo("user=1");
        // the same request object executed again without a span carries no stale context
        List<Map<String, String>> reuse = run.all("RECEIVED", "async-reuse");
        assertThat(reuse).hasSize(2);
        assertThat(AppRun.value(reuse.get(0), "traceparent")).isNotNull();
        assertThat(AppRun.value(reuse.get(1), "traceparent")).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void redirectsErrorsAndCancellationsEndTheSpanRight(Variant v) {
        AppRun run = enabled(v);
        JsonNode redirect = clientSpan(run, "async-redirect");
        assertThat(redirect.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.port + "/redirect?tag=async-redirect");
        assertThat(redirect.path("tags").path("http.status_code").asText()).isEqualTo("200");
        List<Map<String, String>> hops = run.all("RECEIVED", "async-redirect");
        assertThat(hops).extracting(h -> h.get("path")).containsExactly("/redirect", "/ok");
        for (Map<String, String> hop : hops) {
            assertReceivedFrom(hop, run.root("async-redirect"), redirect);
        }

        JsonNode fail = clientSpan(run, "async-fail");
        assertThat(fail.path("status").asText()).isEqualTo("ERROR");
        assertThat(fail.path("tags").path("http.status_code").asText()).isEqualTo("500");
        assertThat(run.first("STATUS", "async-fail").get("code")).isEqualTo("500");

        JsonNode cancelled = clientSpan(run, "async-cancel");
        assertThat(cancelled.path("status").asText()).isEqualTo("ERROR");
        assertThat(cancelled.path("tags").path("error").asText()).contains("CancellationException");
        assertThat(run.first("CALLBACK", "async-cancel").get("outcome")).isEqualTo("cancelled");
        assertThat(run.first("FUTURE", "async-cancel").get("cancelled")).isEqualTo("true");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void refusedConnectionIsAnErrorSpanAndTheApplicationStillGetsItsCallbackAndException(Variant v) {
        AppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "async-refused-traced");
        assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
        assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
        assertThat(clientSpan.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.closedPort + "/refused?tag=async-refused-traced");
        assertThat(run.has("RECEIVED", "async-refused-traced")).isFalse();
        for (String tag : List.of("async-refused-traced", "async-refused-plain")) {
            assertThat(run.first("CALLBACK", tag).get("outcome")).as(tag).isEqualTo("failed");
            assertThat(run.first("FUTURE", tag).get("class")).as(tag).isEqualTo(run.first("ERROR", tag).get("class"));
        }
        Map<String, String> traced = run.first("ERROR", "async-refused-traced");
        Map<String, String> plain = run.first("ERROR", "async-refused-plain");
        assertThat(traced.get("class")).contains("ConnectException").isEqualTo(plain.get("class"));
        assertThat(message(run, "async-refused-traced")).isEqualTo(message(run, "async-refused-plain"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void theExceptionIsTheSameAsWithoutThePlugin(Variant v) {
        AppRun run = enabled(v);
        AppRun baseline = disabled(v);
        for (String tag : List.of("async-refused-traced", "async-refused-plain")) {
            assertThat(run.first("ERROR", tag).get("class")).isEqualTo(baseline.first("ERROR", tag).get("class"));
            assertThat(message(run, tag)).isEqualTo(message(baseline, tag));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyRequestIsCountedExactlyOnce(Variant v) {
        AppRun run = enabled(v);
        run.awaitAllMetricsStored(client);
        List<JsonNode> rows = run.clientRows(client, "127.0.0.1");

        JsonNode ok = AppRun.row(rows, "GET", 200);
        assertThat(ok).as("GET 127.0.0.1 200 in %s", rows).isNotNull();
        assertThat(ok.path("count").asLong()).isEqualTo(OK_CALLS);
        assertThat(ok.path("errors").asLong()).isZero();
        assertThat(ok.path("maxMs").asDouble()).isGreaterThan(0);

        // refused (traced and plain) and cancelled
        JsonNode failed = AppRun.row(rows, "GET", 0);
        assertThat(failed).as("failed calls in %s", rows).isNotNull();
        assertThat(failed.path("count").asLong()).isEqualTo(3);
        assertThat(failed.path("errors").asLong()).isEqualTo(3);

        JsonNode missing = AppRun.row(rows, "GET", 404);
        assertThat(missing).as("404 in %s", rows).isNotNull();
        assertThat(missing.path("count").asLong()).isEqualTo(1);
        assertThat(missing.path("errors").asLong()).isEqualTo(1);

        JsonNode fail = AppRun.row(rows, "GET", 500);
        assertThat(fail).as("500 in %s", rows).isNotNull();
        assertThat(fail.path("count").asLong()).isEqualTo(1);
        assertThat(fail.path("errors").asLong()).isEqualTo(1);

        assertThat(run.clientRows(client, null)).as("no other client rows").hasSize(4);
        assertThat(AppRun.gauge(client, run.service, "agent.advice.errors")).isZero();
        assertThat(AppRun.gauge(client, run.service, "agent.classes.transformed")).isGreaterThanOrEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(Variant v) {
        AppRun run = enabled(v);
        for (int i = 0; i < Hc5AsyncApp.PLAIN_CALLS; i++) {
            Map<String, String> received = run.first("RECEIVED", "async-plain" + i);
            assertThat(AppRun.value(received, "traceparent")).as("async-plain%d", i).isNull();
            assertThat(AppRun.value(received, "tracestate")).isNull();
            assertThat(run.first("STATUS", "async-plain" + i).get("code")).isEqualTo("200");
        }
        assertThat(AppRun.value(run.first("RECEIVED", "async-missing"), "traceparent")).isNull();
        assertThat(run.first("STATUS", "async-nocallback").get("code")).isEqualTo("200");
        assertThat(AppRun.value(run.first("RECEIVED", "async-nocallback"), "traceparent")).isNull();
        run.awaitAllMetricsStored(client);
        List<String> urls = new ArrayList<>();
        for (JsonNode summary : client.traces(run.service, 100)) {
            for (JsonNode span : client.trace(summary.path("traceId").asText()).path("spans")) {
                if ("CLIENT".equals(span.path("kind").asText())) {
                    urls.add(span.path("tags").path("http.url").asText());
                }
            }
        }
        assertThat(urls).hasSize(CLIENT_SPANS);
        assertThat(urls).noneMatch(url -> url.contains("tag=async-plain") || url.contains("refused-plain")
                || url.contains("tag=async-missing") || url.contains("tag=async-nocallback"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void disabledPluginRecordsAndInstrumentsNothingAndCallsStillWork(Variant v) {
        AppRun run = disabled(v);
        for (String tag : List.of("async-traced", "async-plain0", "async-producer", "async-redirect", "async-minimal",
                "async-chain", "async-nocallback", "async-tracestate")) {
            assertThat(run.first("STATUS", tag).get("code")).as(tag).isEqualTo("200");
        }
        assertThat(run.first("STATUS", "async-fail").get("code")).isEqualTo("500");
        assertThat(run.first("CALLBACK", "async-refused-plain").get("outcome")).isEqualTo("failed");
        assertThat(run.first("CALLBACK", "async-cancel").get("outcome")).isEqualTo("cancelled");
        assertThat(AppRun.value(run.first("RECEIVED", "async-traced"), "traceparent")).isNull();
        assertThat(run.first("RECEIVED", "async-user-header").get("traceparent"))
                .as("the application's own header goes out unchanged")
                .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        run.awaitAllMetricsStored(client);
        assertThat(run.clientRows(client, null)).isEmpty();
        JsonNode trace = awaitTrace(run.root("async-traced"), 1);
        assertThat(trace.path("spans")).hasSize(1);
        assertThat(trace.path("spans").get(0).path("kind").asText()).isEqualTo("SERVER");
        assertThat(AppRun.gauge(client, run.service, "agent.classes.transformed")).isZero();
    }
}
