package io.argus.plugin.apachehttpclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.apachehttpclient.AppRun.TraceContext;
import io.argus.plugin.apachehttpclient.app.Hc4App;
import io.argus.plugin.apachehttpclient.app.Hc5App;
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
 * The plugin against real Apache HttpClient releases: the oldest and newest tested 4.x and 5.x, each
 * from its own folder of jars, in an application JVM with the real agent, a real downstream server
 * inside it and a real collector in this JVM. Every version runs on JDK 17; the newest 4.x and 5.x
 * also run on Temurin 25 when it is installed. Each run is started once and shared by the tests
 * that read it; every assertion reads the collector's API or what the application printed.
 */
class ApacheHttpClientIT {

    private static TestCollector collector;
    private static CollectorClient client;
    private static final Map<String, AppRun> RUNS = new ConcurrentHashMap<>();

    /** One library version on one JDK. */
    record Variant(String name, String mainClass, String libs, String javaHome, int okCalls, List<String> tracedTags) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<String> TRACED_V5 = List.of("traced", "user-header", "reuse", "handler", "host-target",
            "redirect", "fail", "minimal", "refused-traced", "tracestate");
    private static final List<String> TRACED_V4;

    static {
        List<String> v4 = new ArrayList<>(TRACED_V5);
        v4.add("legacy");
        TRACED_V4 = List.copyOf(v4);
    }

    /** 200s: traced, user-header, reuse x2, handler, host-target, redirect, minimal, tracestate, the plain calls (+ legacy on 4.x). */
    private static final int OK_V5 = 9 + Hc5App.PLAIN_CALLS;
    private static final int OK_V4 = 10 + Hc4App.PLAIN_CALLS;

    static List<Variant> variants() {
        String jdk17 = System.getProperty("java.home");
        List<Variant> variants = new ArrayList<>();
        variants.add(v4(System.getProperty("argus.test.hc4.oldest"), jdk17));
        variants.add(v4(System.getProperty("argus.test.hc4.newest"), jdk17));
        variants.add(v5(System.getProperty("argus.test.hc5.oldest"), jdk17));
        variants.add(v5(System.getProperty("argus.test.hc5.newest"), jdk17));
        for (String home : AgentApp.javaHomes()) {
            if (!home.equals(jdk17)) {
                variants.add(v4(System.getProperty("argus.test.hc4.newest"), home));
                variants.add(v5(System.getProperty("argus.test.hc5.newest"), home));
            }
        }
        return variants;
    }

    static List<Variant> newest() {
        String jdk17 = System.getProperty("java.home");
        return List.of(v4(System.getProperty("argus.test.hc4.newest"), jdk17), v5(System.getProperty("argus.test.hc5.newest"), jdk17));
    }

    private static Variant v4(String libs, String javaHome) {
        return new Variant(libs + "-" + AppRun.label(javaHome), Hc4App.class.getName(), libs, javaHome, OK_V4, TRACED_V4);
    }

    private static Variant v5(String libs, String javaHome) {
        return new Variant(libs + "-" + AppRun.label(javaHome), Hc5App.class.getName(), libs, javaHome, OK_V5, TRACED_V5);
    }

    @BeforeAll
    static void startCollectorAndApplications() {
        collector = TestCollector.start();
        client = collector.client();
        // all application JVMs start at once; each test waits only for the run it reads
        variants().forEach(ApacheHttpClientIT::launchEnabled);
        newest().forEach(ApacheHttpClientIT::launchDisabled);
    }

    @AfterAll
    static void stopAll() {
        RUNS.values().forEach(AppRun::close);
        if (collector != null) {
            collector.close();
        }
    }

    private static AppRun launchEnabled(Variant v) {
        return RUNS.computeIfAbsent("on " + v.name(), k -> AppRun.start(v.mainClass(), v.libs(), v.javaHome(),
                "ahc-" + v.name(), collector.ingestPort(), Map.of()));
    }

    private static AppRun launchDisabled(Variant v) {
        return RUNS.computeIfAbsent("off " + v.name(), k -> AppRun.start(v.mainClass(), v.libs(), v.javaHome(),
                "ahc-off-" + v.name(), collector.ingestPort(), Map.of("argus.plugin.apache-httpclient.enabled", "false")));
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
    void tracedCallIsAClientSpanUnderTheCurrentSpanAndItsTraceparentReachesTheServer(Variant v) {
        AppRun run = enabled(v);
        for (String tag : List.of("traced", "handler", "minimal", "user-header", "reuse")) {
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
        if (v.mainClass().equals(Hc4App.class.getName())) {
            // DefaultHttpClient (AbstractHttpClient)
            JsonNode legacy = clientSpan(run, "legacy");
            assertReceivedFrom(run.first("RECEIVED", "legacy"), run.root("legacy"), legacy);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void theRequestObjectIsLeftAsTheApplicationMadeIt(Variant v) {
        AppRun run = enabled(v);
        // no header of ours stays on the request after the call
        assertThat(AppRun.value(run.first("AFTERCALL", "traced"), "traceparent")).isNull();
        assertThat(AppRun.value(run.first("AFTERCALL", "traced"), "tracestate")).isNull();
        // the application's own trace headers: replaced on the wire, put back afterwards
        Map<String, String> received = run.first("RECEIVED", "user-header");
        assertThat(TraceContext.parse(received.get("traceparent")).traceId()).isEqualTo(run.root("user-header").traceId());
        assertThat(AppRun.value(received, "tracestate")).as("the replaced context's tracestate").isNull();
        Map<String, String> after = run.first("AFTERCALL", "user-header");
        assertThat(after.get("traceparent")).isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assertThat(after.get("tracestate")).isEqualTo("user=1");
        // the same request object executed again without a span carries no stale context
        List<Map<String, String>> reuse = run.all("RECEIVED", "reuse");
        assertThat(reuse).hasSize(2);
        assertThat(AppRun.value(reuse.get(0), "traceparent")).isNotNull();
        assertThat(AppRun.value(reuse.get(1), "traceparent")).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void redirectsAndExplicitTargetsAreOneRequest(Variant v) {
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
        assertThat(run.first("STATUS", "redirect").get("code")).isEqualTo("200");

        JsonNode hostTarget = clientSpan(run, "host-target");
        assertThat(hostTarget.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.port + "/ok?tag=host-target");
        assertReceivedFrom(run.first("RECEIVED", "host-target"), run.root("host-target"), hostTarget);

        JsonNode fail = clientSpan(run, "fail");
        assertThat(fail.path("status").asText()).isEqualTo("ERROR");
        assertThat(fail.path("tags").path("http.status_code").asText()).isEqualTo("500");
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void refusedConnectionIsAnErrorSpanAndTheCallerGetsTheLibrarysOwnException(Variant v) {
        AppRun run = enabled(v);
        JsonNode clientSpan = clientSpan(run, "refused-traced");
        assertThat(clientSpan.path("status").asText()).isEqualTo("ERROR");
        assertThat(clientSpan.path("tags").path("error").asText()).contains("ConnectException");
        assertThat(clientSpan.path("tags").path("http.url").asText())
                .isEqualTo("http://127.0.0.1:" + run.closedPort + "/refused?tag=refused-traced");
        assertThat(run.has("RECEIVED", "refused-traced")).isFalse();
        // traced or not, the application sees the same exception
        Map<String, String> traced = run.first("ERROR", "refused-traced");
        Map<String, String> plain = run.first("ERROR", "refused-plain");
        assertThat(traced.get("class")).endsWith("HttpHostConnectException").isEqualTo(plain.get("class"));
        assertThat(traced.get("message")).isEqualTo(plain.get("message"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("newest")
    void theExceptionIsTheSameAsWithoutThePlugin(Variant v) {
        AppRun run = enabled(v);
        AppRun baseline = disabled(v);
        for (String tag : List.of("refused-traced", "refused-plain")) {
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
        assertThat(ok.path("count").asLong()).isEqualTo(v.okCalls());
        assertThat(ok.path("errors").asLong()).isZero();
        assertThat(ok.path("maxMs").asDouble()).isGreaterThan(0);

        JsonNode refused = AppRun.row(rows, "GET", 0);
        assertThat(refused).as("refused calls in %s", rows).isNotNull();
        assertThat(refused.path("count").asLong()).isEqualTo(2);
        assertThat(refused.path("errors").asLong()).isEqualTo(2);

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
        assertThat(AppRun.gauge(client, run.service, "agent.classes.transformed")).isGreaterThanOrEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("variants")
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders(Variant v) {
        AppRun run = enabled(v);
        for (int i = 0; i < Hc4App.PLAIN_CALLS; i++) {
            Map<String, String> received = run.first("RECEIVED", "plain" + i);
            assertThat(AppRun.value(received, "traceparent")).as("plain%d", i).isNull();
            assertThat(AppRun.value(received, "tracestate")).isNull();
            assertThat(run.first("STATUS", "plain" + i).get("code")).isEqualTo("200");
        }
        assertThat(AppRun.value(run.first("RECEIVED", "missing"), "traceparent")).isNull();
        run.awaitAllMetricsStored(client);
        // every client span of this service belongs to one of the calls made under a span
        List<String> urls = new ArrayList<>();
        for (JsonNode summary : client.traces(run.service, 100)) {
            for (JsonNode span : client.trace(summary.path("traceId").asText()).path("spans")) {
                if ("CLIENT".equals(span.path("kind").asText())) {
                    urls.add(span.path("tags").path("http.url").asText());
                }
            }
        }
        assertThat(urls).hasSize(v.tracedTags().size());
        assertThat(urls).noneMatch(url -> url.contains("tag=plain") || url.contains("refused-plain") || url.contains("tag=missing"));
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
        for (String tag : List.of("traced", "plain0", "handler", "redirect", "minimal", "tracestate")) {
            assertThat(run.first("STATUS", tag).get("code")).as(tag).isEqualTo("200");
        }
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
        assertThat(AppRun.value(run.first("RECEIVED", "traced"), "traceparent")).isNull();
        assertThat(run.first("AFTERCALL", "user-header").get("traceparent"))
                .isEqualTo("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        run.awaitAllMetricsStored(client);
        assertThat(run.clientRows(client, null)).isEmpty();
        JsonNode trace = awaitTrace(run.root("traced"), 1);
        assertThat(trace.path("spans")).hasSize(1);
        assertThat(trace.path("spans").get(0).path("kind").asText()).isEqualTo("SERVER");
        assertThat(AppRun.gauge(client, run.service, "agent.classes.transformed")).isZero();
    }
}
