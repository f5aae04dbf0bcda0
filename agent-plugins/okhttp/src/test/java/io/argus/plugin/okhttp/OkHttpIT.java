package io.argus.plugin.okhttp;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.okhttp.AppRun.TraceContext;
import io.argus.plugin.okhttp.app.OkHttpApp;
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
 * The plugin against real OkHttp releases (the oldest supported 3.12.0, the newest 3.x, 4.x and 5.x),
 * each from its own folder of jars, in an application JVM with the real agent, a real downstream
 * server inside it and a real collector in this JVM. Every version runs on JDK 17; the oldest and the
 * newest also run on Temurin 25 when it is installed. Each run is started once and shared by the
 * tests that read it; every assertion reads the collector's API or what the application printed.
 */
class OkHttpIT {

    private static TestCollector collector;
    private static CollectorClient client;
    private static final Map<String, AppRun> RUNS = new ConcurrentHashMap<>();

    /** 200s: traced, async-traced, async-throws, user-header, redirect, tracestate, the plain and the plain async calls. */
    private static final int OK_CALLS = 6 + OkHttpApp.PLAIN_CALLS + OkHttpApp.ASYNC_CALLS;
    private static final List<String> TRACED = List.of("traced", "async-traced", "async-throws", "user-header",
            "redirect", "fail", "refused-traced", "refused-async", "tracestate");

    /** One OkHttp version on one JDK. */
    record Variant(String version, String javaHome) {
        String name() {
            return version + "-" + AppRun.label(javaHome);
        }

        @Override
        public String toString() {
            return name();
        }
    }

    static List<Variant> variants() {
        String jdk17 = System.getProperty("java.home");
        List<Variant> variants = new ArrayList<>();
        for (String version : System.getProperty("argus.test.okhttp.versions").split(",")) {
            variants.add(new Variant(version, jdk17));
        }
        for (String home : AgentApp.javaHomes()) {
            if (!home.equals(jdk17)) {
                variants.add(new Variant(System.getProperty("argus.test.okhttp.oldest"), home));
                variants.add(new Variant(System.getProperty("argus.test.okhttp.newest"), home));
            }
        }
        return variants;
    }

    static List<Variant> newest() {
        return List.of(new Variant(System.getProperty("argus.test.okhttp.newest"), System.getProperty("java.home")));
    }

    @BeforeAll
    static void startCollectorAndApplications() {
        collector = TestCollector.start();
        client = collector.client();
        // all application JVMs start at once; each test waits only for the run it reads
        variants().forEach(OkHttpIT::launchEnabled);
        newest().forEach(OkHttpIT::launchDisabled);
    }

    @AfterAll
    static void stopAll() {
        RUNS.values().forEach(AppRun::close);
        if (collector != null) {
            collector.close();
        }
    }

    private static AppRun launchEnabled(Variant v) {
        return RUNS.computeIfAbsent("on " + v.name(), k -> AppRun.start(OkHttpApp.class.getName(), "okhttp-" + v.version(),
                v.javaHome(), "okhttp-" + v.name(), collector.ingestPort(), Map.of()));
    }

    private static AppRun launchDisabled(Variant v) {
        return RUNS.computeIfAbsent("off " + v.name(), k -> AppRun.start(OkHttpApp.class.getName(), "okhttp-" + v.version(),
                v.javaHome(), "okhttp-off-" + v.name(), collector.ingestPort(), Map.of("argus.plugin.okhttp.enabled", "false")));
    }

    private static AppRun enabled(Variant v) {
        return launchEnabled(v).done();
    }

    private static AppRun disabled(Variant v) {
        return launchDisabled(v).done();
    }

    /** An exception message without the (per-run) port nobody listens on. */
    private static String message(AppRun run, String tag) {
        return run.first("ERROR", tag).get("message").replace(String.valueOf(run.closedPort), "<port>");
    }

    private static JsonNode awaitTrace(TraceContext root, int spans) {
        return CollectorClient.await("trace " + root.traceId() + " with " + spans + " spans", AppRun.WAIT,
                () -> client.trace(root.traceId()), t -> t.path("spans").size() >= spans);
    }

    private static JsonNode span(JsonNode trace, String kind) {
        JsonNode found = null;
        for (JsonNode span : trace.path("spans")) {
            if (kind.equals(span.path("kind").asText())) {
                assertThat(found).as("only one %s span in %s", kind, trace).isNull();
                found = span;
            }
        }
        assertThat(found).as("a %s span in %s", kind, trace).isNotNull();
        return found;
    }

    /** The CLIENT span of the call tagged {@code tag}: the only child of its hand-made root span. */
    private static JsonNode clientSpan(AppRun run, String tag) {
        TraceContext root = run.root(tag);
        JsonNode trace = awaitTrace(root, 2);
        assertThat(trace.path("spans")).as("spans of %s", tag).hasSize(2);
        JsonNode server = span(trace, "SERVER");
        assertThat(server.path("spanId").asText()).isEqualToIgnoringCase(root.spanId());
        JsonNode clientSpan = span(trace, "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).as("parent of %s", tag).isEqualToIgnoringCase(root.spanId());
        return clientSpan;
    }

    /** The downstream server received the client span itself as its parent. */
    private static void assertReceivedFrom(Map<String, String> received, TraceContext root, JsonNode clientSpan) {
        TraceContext context = TraceContext.parse(AppRun.value(received, "traceparent"));
        assertThat(context).as("traceparent received in %s", received).isNotNull();
        assertThat(context.traceId()).isEqualTo(root.traceId());
        assertThat(context.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        assertThat(received.get("traceparent")).endsWith("-01");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void executeAndEnqueueAreClientSpansUnderTheCurrentSpanAndTheirTraceparentReachesTheServer(Variant v) {
        AppRun run = enabled(v);
        for (String tag : List.of("traced", "async-traced")) {
            JsonNode clientSpan = clientSpan(run, tag);
            assertThat(clientSpan.path("name").asText()).isEqualTo("GET 127.0.0.1");
            assertThat(clientSpan.path("status").asText()).as(tag).isNotEqualTo("ERROR");
            JsonNode tags = clientSpan.path("tags");
            assertThat(tags.path("http.method").asText()).isEqualTo("GET");
            assertThat(tags.path("http.url").asText()).isEqualTo("http://127.0.0.1:" + run.port + "/ok?tag=" + tag);
            assertThat(tags.path("peer").asText()).isEqualTo("127.0.0.1:" + run.port);
            assertThat(tags.path("http.status_code").asText()).isEqualTo("200");

            Map<String, String> received = run.first("RECEIVED", tag);
            assertReceivedFrom(received, run.root(tag), clientSpan);
            assertThat(received.get("x-test")).as("the application's own header").isEqualTo(tag);
            assertThat(run.first("STATUS", tag).get("code")).isEqualTo("200");
            assertThat(run.first("STATUS", tag).get("body")).isEqualTo("hello-" + tag);
        }
        // the callback ran on a dispatcher thread, in the caller's context
        Map<String, String> callback = run.first("CALLBACK", "async-traced");
        assertThat(callback.get("thread")).startsWith("OkHttp");
        assertThat(TraceContext.parse(callback.get("context"))).isEqualTo(run.root("async-traced"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void aTracedCallbacksOwnExceptionReachesOkHttpUnchanged(Variant v) {
        AppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "async-throws");
        assertThat(clientSpan.path("status").asText()).isNotEqualTo("ERROR");
        assertThat(TraceContext.parse(run.first("CALLBACK", "async-throws").get("context")))
                .isEqualTo(run.root("async-throws"));
        Map<String, String> uncaught = run.first("UNCAUGHT", "async-throws");
        assertThat(uncaught.get("class")).isEqualTo("java.lang.IllegalStateException");
        assertThat(uncaught.get("message")).isEqualTo("thrown_by_the_callback");
        assertThat(uncaught.get("same")).as("the very exception the callback threw").isEqualTo("true");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void aThrowingCallbackEndsAsWithoutThePlugin(Variant v) {
        Map<String, String> on = enabled(v).first("UNCAUGHT", "async-throws");
        Map<String, String> off = disabled(v).first("UNCAUGHT", "async-throws");
        assertThat(on).isEqualTo(off);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void applicationTraceHeadersAreReplacedOnTheWireOnly(Variant v) {
        AppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "user-header");
        Map<String, String> received = run.first("RECEIVED", "user-header");
        assertReceivedFrom(received, run.root("user-header"), clientSpan);
        assertThat(AppRun.value(received, "tracestate")).as("the replaced context's tracestate").isNull();
        // the application's Request object is immutable and stays as it was built
        Map<String, String> after = run.first("AFTERCALL", "user-header");
        assertThat(after.get("traceparent")).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(after.get("tracestate")).isEqualTo("user=1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void aRedirectIsOneCallAndA5xxIsAnError(Variant v) {
        AppRun run = enabled(v);
        JsonNode redirect = clientSpan(run, "redirect");
        assertThat(redirect.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.port + "/redirect?tag=redirect");
        assertThat(redirect.path("tags").path("http.status_code").asText()).isEqualTo("200");
        List<Map<String, String>> hops = run.all("RECEIVED", "redirect");
        assertThat(hops).extracting(h -> h.get("path")).containsExactly("/redirect", "/ok");
        for (Map<String, String> hop : hops) {
            assertReceivedFrom(hop, run.root("redirect"), redirect);
        }
        JsonNode fail = clientSpan(run, "fail");
        assertThat(fail.path("status").asText()).isEqualTo("ERROR");
        assertThat(fail.path("tags").path("http.status_code").asText()).isEqualTo("500");
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void refusedConnectionsAreErrorSpansAndTheCallerGetsTheLibrarysOwnException(Variant v) {
        AppRun run = enabled(v);
        for (String tag : List.of("refused-traced", "refused-async")) {
            JsonNode clientSpan = clientSpan(run, tag);
            assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
            assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
            assertThat(clientSpan.path("tags").path("http.url").asText())
                    .isEqualTo("http://127.0.0.1:" + run.closedPort + "/refused?tag=" + tag);
            assertThat(run.has("RECEIVED", tag)).isFalse();
            // traced or not, synchronous or not, the application sees the same exception
            assertThat(run.first("ERROR", tag).get("class")).isEqualTo("java.net.ConnectException");
            assertThat(message(run, tag)).isEqualTo(message(run, "refused-plain"));
        }
        assertThat(TraceContext.parse(run.first("CALLBACK", "refused-async").get("context"))).isEqualTo(run.root("refused-async"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void theExceptionIsTheSameAsWithoutThePlugin(Variant v) {
        AppRun run = enabled(v);
        AppRun baseline = disabled(v);
        for (String tag : List.of("refused-traced", "refused-async", "refused-plain")) {
            assertThat(run.first("ERROR", tag).get("class")).isEqualTo(baseline.first("ERROR", tag).get("class"));
            assertThat(message(run, tag)).isEqualTo(message(baseline, tag));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void everyCallIsCountedExactlyOnce(Variant v) {
        AppRun run = enabled(v);
        run.awaitAllMetricsStored(client);
        List<JsonNode> rows = run.clientRows(client, "127.0.0.1");

        JsonNode ok = AppRun.row(rows, "GET", 200);
        assertThat(ok).as("GET 127.0.0.1 200 in %s", rows).isNotNull();
        assertThat(ok.path("count").asLong()).isEqualTo(OK_CALLS);
        assertThat(ok.path("errors").asLong()).isZero();
        assertThat(ok.path("maxMs").asDouble()).isGreaterThan(0);

        JsonNode refused = AppRun.row(rows, "GET", 0);
        assertThat(refused).as("refused calls in %s", rows).isNotNull();
        assertThat(refused.path("count").asLong()).isEqualTo(3);
        assertThat(refused.path("errors").asLong()).isEqualTo(3);

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
        for (int i = 0; i < OkHttpApp.PLAIN_CALLS; i++) {
            Map<String, String> received = run.first("RECEIVED", "plain" + i);
            assertThat(AppRun.value(received, "traceparent")).as("plain%d", i).isNull();
            assertThat(run.first("STATUS", "plain" + i).get("code")).isEqualTo("200");
        }
        // asynchronous calls after the traced ones, on the same dispatcher threads: no context carried over
        for (int i = 0; i < OkHttpApp.ASYNC_CALLS; i++) {
            assertThat(AppRun.value(run.first("RECEIVED", "async" + i), "traceparent")).as("async%d", i).isNull();
            assertThat(AppRun.value(run.first("CALLBACK", "async" + i), "context")).as("async%d", i).isNull();
            assertThat(run.first("STATUS", "async" + i).get("code")).isEqualTo("200");
        }
        assertThat(AppRun.value(run.first("RECEIVED", "missing"), "traceparent")).isNull();
        run.awaitAllMetricsStored(client);
        List<String> urls = new ArrayList<>();
        for (JsonNode summary : client.traces(run.service, 100)) {
            for (JsonNode span : client.trace(summary.path("traceId").asText()).path("spans")) {
                if ("CLIENT".equals(span.path("kind").asText())) {
                    urls.add(span.path("tags").path("http.url").asText());
                }
            }
        }
        assertThat(urls).hasSize(TRACED.size());
        assertThat(urls).noneMatch(url -> url.contains("tag=plain") || url.matches(".*tag=async\\d.*")
                || url.contains("refused-plain") || url.contains("tag=missing"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void inboundTracestateIsPassedOn(Variant v) {
        AppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "tracestate");
        Map<String, String> received = run.first("RECEIVED", "tracestate");
        assertReceivedFrom(received, run.root("tracestate"), clientSpan);
        assertThat(received.get("tracestate")).isEqualTo("vendor=argus");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void disabledPluginRecordsAndInstrumentsNothingAndCallsStillWork(Variant v) {
        AppRun run = disabled(v);
        for (String tag : List.of("traced", "async-traced", "plain0", "async0", "redirect", "tracestate")) {
            assertThat(run.first("STATUS", tag).get("code")).as(tag).isEqualTo("200");
        }
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
        assertThat(AppRun.value(run.first("RECEIVED", "traced"), "traceparent")).isNull();
        assertThat(AppRun.value(run.first("RECEIVED", "async-traced"), "traceparent")).isNull();
        assertThat(AppRun.value(run.first("CALLBACK", "async-traced"), "context")).isNull();
        run.awaitAllMetricsStored(client);
        assertThat(run.clientRows(client, null)).isEmpty();
        JsonNode trace = awaitTrace(run.root("traced"), 1);
        assertThat(trace.path("spans")).hasSize(1);
        assertThat(trace.path("spans").get(0).path("kind").asText()).isEqualTo("SERVER");
        assertThat(AppRun.gauge(client, run.service, "agent.classes.transformed")).isZero();
    }
}
