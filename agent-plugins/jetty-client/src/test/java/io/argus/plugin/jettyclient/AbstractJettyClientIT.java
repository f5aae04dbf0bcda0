package io.argus.plugin.jettyclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.jettyclient.AppRun.TraceContext;
import io.argus.plugin.jettyclient.app.Downstream;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against one real Jetty HttpClient version: the test application calls the JDK
 * {@code HttpServer} in its own JVM (forked with the assembled agent and that version's jars) and
 * prints what it did and what the server received; the assertions read that output and the real
 * collector in this JVM. Each application run is started once per class and shared by its tests.
 */
abstract class AbstractJettyClientIT {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final String JDK = System.getProperty("java.home");

    static TestCollector collector;
    static CollectorClient client;
    static final Map<String, AppRun> RUNS = new ConcurrentHashMap<>();

    @BeforeAll
    static void startCollector() {
        collector = TestCollector.start();
        client = collector.client();
    }

    @AfterAll
    static void stopAll() {
        RUNS.values().forEach(AppRun::close);
        RUNS.clear();
        if (collector != null) {
            collector.close();
        }
    }

    /** The Jetty version under test (a folder of target/jetty-client/). */
    abstract String version();

    abstract String mainClass();

    /** The test application's classes, before the version's jars. */
    abstract String appClasses();

    String classpath() {
        Path jars = Paths.get(System.getProperty("argus.test.jetty.jars"), version());
        assertThat(Files.isDirectory(jars)).as("jars of Jetty %s in %s", version(), jars).isTrue();
        return appClasses() + File.pathSeparator + jars.resolve("*");
    }

    AppRun run(String mode, String javaHome, double samplingRate, Map<String, String> agentProperties, String... args) {
        String service = "jetty-client-" + version() + "-" + mode + "-" + AppRun.label(javaHome);
        return RUNS.computeIfAbsent(service, k -> AppRun.start(mainClass(), args, javaHome, classpath(), service,
                client, collector.ingestPort(), samplingRate, agentProperties));
    }

    AppRun enabled() {
        return run("on", JDK, 100, Map.of());
    }

    AppRun disabled() {
        return run("off", JDK, 100, Map.of("argus.plugin.jetty-client.enabled", "false", "argus.log.level", "debug"));
    }

    // ---- the enabled run (JDK 17, 100%)

    @Test
    void syncCallIsAClientSpanUnderTheCallersSpanAndItsTraceparentReachesTheServer() {
        assertTracedCall(enabled(), "traced", "sync");
    }

    @Test
    void asyncCallCompletedOnAnotherThreadIsTracedTheSame() {
        assertTracedCall(enabled(), "async-traced", "async");
    }

    @Test
    void everyCallIsCountedExactlyOnce() {
        assertCounts(enabled());
    }

    @Test
    void failuresAreErrorsAndReachTheCallerUnchanged() {
        AppRun run = enabled();
        JsonNode missing = clientSpan(run, "missing");
        assertThat(missing.path("status").asText()).isEqualTo("ERROR");
        assertThat(missing.path("tags").path("http.status_code").asText()).isEqualTo("404");
        JsonNode fail = clientSpan(run, "fail");
        assertThat(fail.path("status").asText()).isEqualTo("ERROR");
        assertThat(fail.path("tags").path("http.status_code").asText()).isEqualTo("500");
        assertThat(run.first("STATUS", "missing").get("code")).isEqualTo("404");
        assertThat(run.first("STATUS", "fail").get("code")).isEqualTo("500");
        for (String tag : List.of("refused", "async-refused")) {
            JsonNode refused = clientSpan(run, tag);
            assertThat(refused.path("status").asText()).as(tag).isEqualTo("ERROR");
            assertThat(refused.path("tags").path("error").asText()).as(tag).contains("ConnectException");
            assertThat(refused.path("tags").path("http.url").asText())
                    .isEqualTo("http://127.0.0.1:" + run.closedPort + "/x?tag=" + tag);
            assertThat(run.has("RECEIVED", tag)).isFalse();
        }
        // the caller gets exactly what it gets without the plugin
        AppRun baseline = disabled();
        for (String tag : List.of("refused", "async-refused")) {
            Map<String, String> error = run.first("ERROR", tag);
            Map<String, String> expected = baseline.first("ERROR", tag);
            assertThat(error.get("class")).as(tag).isEqualTo(expected.get("class"));
            assertThat(error.get("message").replace(String.valueOf(run.closedPort), "PORT")).as(tag)
                    .isEqualTo(expected.get("message").replace(String.valueOf(baseline.closedPort), "PORT"));
        }
    }

    @Test
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders() {
        AppRun run = enabled();
        for (int i = 0; i < Downstream.PLAIN_CALLS; i++) {
            assertThat(run.receivedTraceparent("plain" + i)).as("plain%d", i).isNull();
            assertThat(run.first("STATUS", "plain" + i).get("body")).isEqualTo("hello-plain" + i);
        }
        for (int i = 0; i < Downstream.ASYNC_PLAIN_CALLS; i++) {
            assertThat(run.receivedTraceparent("aplain" + i)).as("aplain%d", i).isNull();
            assertThat(run.first("STATUS", "aplain" + i).get("body")).isEqualTo("hello-aplain" + i);
        }
        run.awaitAllMetricsStored(client);
        List<String> urls = clientUrls(run);
        assertThat(urls).noneMatch(url -> url.contains("plain"));
        assertThat(urls).anyMatch(url -> url.endsWith("tag=traced"));
    }

    @Test
    void aTraceparentSetByTheApplicationIsReplacedByTheClientSpans() {
        AppRun run = enabled();
        assertChildCall(run, "replace", "/ok?tag=replace");
        assertThat(run.receivedTraceparent("replace")).doesNotContain("0af7651916cd43dd8448eb211c80319c");
    }

    @Test
    void aRedirectIsOneClientCallPerRequestOnTheWire() {
        AppRun run = enabled();
        JsonNode redirect = assertChildCall(run, "redirect", "/redirect?tag=redirect");
        assertThat(redirect.path("tags").path("http.status_code").asText()).isEqualTo("302");
        assertThat(redirect.path("status").asText()).isNotEqualTo("ERROR");
        assertThat(run.first("STATUS", "redirect").get("body")).isEqualTo("hello-redirect-target");
        // Jetty sends the follow-up request from its own thread, with the headers of the first one
        TraceContext followUp = TraceContext.parse(run.receivedTraceparent("redirect-target"));
        assertThat(followUp.spanId()).isEqualToIgnoringCase(redirect.path("spanId").asText());
    }

    @Test
    void concurrentSyncAndAsyncCallsEachGetTheirOwnSpan() {
        AppRun run = enabled();
        Set<String> threads = new HashSet<>();
        for (int t = 0; t < Downstream.CONCURRENT_THREADS; t++) {
            for (int i = 0; i < Downstream.CONCURRENT_CALLS; i++) {
                String tag = "conc" + t + "_" + i;
                assertChildCall(run, tag, "/ok?tag=" + tag);
                threads.add(run.first("STATUS", tag).get("thread"));
            }
        }
        assertThat(threads).containsExactlyInAnyOrder("sync", "async");
    }

    @Test
    void inboundTracestateIsPassedOn() {
        AppRun run = enabled();
        Map<String, String> received = run.first("RECEIVED", "tracestate");
        assertThat(received.get("tracestate")).isEqualTo("vendor=argus");
        assertThat(TraceContext.parse(received.get("traceparent")).traceId())
                .isEqualTo(run.first("INBOUND", "tracestate").get("traceId"));
    }

    @Test
    void disabledPluginRecordsAndInstrumentsNothing() {
        AppRun run = disabled();
        for (String tag : List.of("traced", "async-traced", "post", "plain0", "aplain0", "tracestate", "conc0_0", "conc0_1")) {
            assertThat(run.has("STATUS", tag)).as(tag).isTrue();
            assertThat(run.receivedTraceparent(tag)).as(tag).isNull();
        }
        assertThat(run.first("STATUS", "missing").get("code")).isEqualTo("404");
        run.awaitAllMetricsStored(client);
        assertThat(run.clientRows(client, null)).isEmpty();
        assertThat(run.app.output()).doesNotContain("instrumented org.eclipse.jetty.client");
        assertThat(run.gauge(client, "agent.classes.transformed")).isZero();
        JsonNode trace = awaitTrace(run.root("traced"), 1);
        assertThat(trace.path("spans")).hasSize(1);
        assertThat(trace.path("spans").get(0).path("kind").asText()).isEqualTo("SERVER");
    }

    // ---- shared assertions

    static void assertTracedCall(AppRun run, String tag, String thread) {
        JsonNode clientSpan = assertChildCall(run, tag, "/ok?tag=" + tag);
        assertThat(clientSpan.path("name").asText()).isEqualTo("GET 127.0.0.1");
        assertThat(clientSpan.path("status").asText()).isNotEqualTo("ERROR");
        JsonNode tags = clientSpan.path("tags");
        assertThat(tags.path("http.method").asText()).isEqualTo("GET");
        assertThat(tags.path("peer").asText()).isEqualTo("127.0.0.1:" + run.port);
        assertThat(tags.path("http.status_code").asText()).isEqualTo("200");
        assertThat(run.first("RECEIVED", tag).get("traceparent")).endsWith("-01");
        // the request kept the application's own header, and the call returned the real response
        assertThat(run.first("RECEIVED", tag).get("x-test")).isEqualTo(tag);
        assertThat(run.first("STATUS", tag).get("code")).isEqualTo("200");
        assertThat(run.first("STATUS", tag).get("thread")).isEqualTo(thread);
        assertThat(run.first("STATUS", tag).get("body")).isEqualTo("hello-" + tag);
        JsonNode post = clientSpan(run, "post");
        assertThat(post.path("name").asText()).isEqualTo("POST 127.0.0.1");
        assertThat(run.first("STATUS", "post").get("body")).isEqualTo("payload");
        assertThat(run.gauge(client, "agent.advice.errors")).isZero();
    }

    /** The call's client span is the only child of its root, and the server received its context. */
    static JsonNode assertChildCall(AppRun run, String tag, String pathAndQuery) {
        TraceContext root = run.root(tag);
        assertThat(root).as("root of %s", tag).isNotNull();
        JsonNode trace = awaitTrace(root, 2);
        assertThat(trace.path("spans")).as("spans of %s", tag).hasSize(2);
        JsonNode server = span(trace, "SERVER");
        JsonNode clientSpan = span(trace, "CLIENT");
        assertThat(server.path("spanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(clientSpan.path("tags").path("http.url").asText()).isEqualTo("http://127.0.0.1:" + run.port + pathAndQuery);
        TraceContext received = TraceContext.parse(run.receivedTraceparent(tag));
        assertThat(received).as("traceparent received for %s", tag).isNotNull();
        assertThat(received.traceId()).isEqualTo(root.traceId());
        assertThat(received.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        return clientSpan;
    }

    static void assertCounts(AppRun run) {
        run.awaitAllMetricsStored(client);
        List<JsonNode> rows = run.clientRows(client, "127.0.0.1");
        long ok = 1 + 1 + 1 + 1 + Downstream.PLAIN_CALLS + Downstream.ASYNC_PLAIN_CALLS + 1
                + (long) Downstream.CONCURRENT_THREADS * Downstream.CONCURRENT_CALLS;
        assertRow(rows, "GET", 200, ok, 0);
        assertRow(rows, "POST", 200, 1, 0);
        assertRow(rows, "GET", 302, 1, 0);
        assertRow(rows, "GET", 404, 1, 1);
        assertRow(rows, "GET", 500, 1, 1);
        assertRow(rows, "GET", 0, 2, 2); // connection refused, sync and async
        assertThat(rows).as("no other client rows: %s", rows).hasSize(6);
        assertThat(run.clientRows(client, null)).hasSize(6);
        // one more flush changes nothing
        long before = System.currentTimeMillis();
        CollectorClient.await("a later metrics flush", WAIT, () -> latestFlush(run), t -> t > before + 1000);
        assertThat(run.clientRows(client, "127.0.0.1")).isEqualTo(rows);
    }

    static void assertRow(List<JsonNode> rows, String method, int status, long count, long errors) {
        JsonNode row = AppRun.row(rows, method, status);
        assertThat(row).as("%s %d in %s", method, status, rows).isNotNull();
        assertThat(row.path("count").asLong()).as("count of %s %d", method, status).isEqualTo(count);
        assertThat(row.path("errors").asLong()).as("errors of %s %d", method, status).isEqualTo(errors);
    }

    static long latestFlush(AppRun run) {
        long latest = 0;
        for (JsonNode instance : client.jvmMetrics(run.service).path("instances")) {
            for (JsonNode points : instance.path("series")) {
                for (JsonNode point : points) {
                    latest = Math.max(latest, point.get(0).asLong());
                }
            }
        }
        return latest;
    }

    static JsonNode clientSpan(AppRun run, String tag) {
        return span(awaitTrace(run.root(tag), 2), "CLIENT");
    }

    static List<String> clientUrls(AppRun run) {
        List<String> urls = new ArrayList<>();
        for (JsonNode summary : client.traces(run.service, 200)) {
            JsonNode trace = client.trace(summary.path("traceId").asText());
            for (JsonNode span : trace.path("spans")) {
                if ("CLIENT".equals(span.path("kind").asText())) {
                    urls.add(span.path("tags").path("http.url").asText());
                }
            }
        }
        return urls;
    }

    static JsonNode awaitTrace(TraceContext root, int spans) {
        return CollectorClient.await("trace " + root.traceId() + " with " + spans + " spans", WAIT,
                () -> client.trace(root.traceId()), t -> t.path("spans").size() >= spans);
    }

    static JsonNode span(JsonNode trace, String kind) {
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

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }
}
