package io.argus.plugin.jettyclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.jettyclient.app.Calls;
import io.argus.testing.AbstractClientPluginIT;
import io.argus.testing.ClientAppRun;
import io.argus.testing.CollectorClient;
import io.argus.testing.TraceContext;
import org.junit.jupiter.api.Test;

import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against one real Jetty HttpClient version: the test application calls the JDK
 * {@code HttpServer} in its own JVM (forked with the assembled agent and that version's jars) and
 * prints what it did and what the server received; the assertions read that output and the real
 * collector in this JVM. Each application run is started once per class and shared by its tests.
 */
abstract class AbstractJettyClientIT extends AbstractClientPluginIT {

    /** The Jetty version under test (a folder of target/jetty-client/). */
    abstract String version();

    abstract String mainClass();

    /** The test application's classes, before the version's jars. */
    abstract String appClasses();

    String classpath() {
        return libraryClasspath(appClasses(), Paths.get(System.getProperty("argus.test.jetty.jars"), version()));
    }

    ClientAppRun run(String mode, String javaHome, double samplingRate, Map<String, String> agentProperties, String... args) {
        String service = "jetty-client-" + version() + "-" + mode + "-" + jdkLabel(javaHome);
        return RUNS.computeIfAbsent(service, k -> ClientAppRun.startGated(
                application(mainClass(), javaHome, classpath(), service, samplingRate, agentProperties).args(args),
                service, api)).done();
    }

    ClientAppRun enabled() {
        return run("on", JDK, 100, Map.of());
    }

    ClientAppRun disabled() {
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
        ClientAppRun run = enabled();
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
                    .isEqualTo("http://127.0.0.1:" + run.closedPort() + "/x?tag=" + tag);
            assertThat(run.has("RECEIVED", tag)).isFalse();
        }
        // the caller gets exactly what it gets without the plugin
        ClientAppRun baseline = disabled();
        for (String tag : List.of("refused", "async-refused")) {
            Map<String, String> error = run.first("ERROR", tag);
            Map<String, String> expected = baseline.first("ERROR", tag);
            assertThat(error.get("class")).as(tag).isEqualTo(expected.get("class"));
            assertThat(errorMessage(run, tag)).as(tag).isEqualTo(errorMessage(baseline, tag));
        }
    }

    @Test
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders() {
        ClientAppRun run = enabled();
        for (int i = 0; i < Calls.PLAIN_CALLS; i++) {
            assertThat(run.receivedTraceparent("plain" + i)).as("plain%d", i).isNull();
            assertThat(run.first("STATUS", "plain" + i).get("body")).isEqualTo("hello-plain" + i);
        }
        for (int i = 0; i < Calls.ASYNC_PLAIN_CALLS; i++) {
            assertThat(run.receivedTraceparent("aplain" + i)).as("aplain%d", i).isNull();
            assertThat(run.first("STATUS", "aplain" + i).get("body")).isEqualTo("hello-aplain" + i);
        }
        awaitAllMetricsStored(run);
        List<String> urls = clientUrls(run);
        assertThat(urls).noneMatch(url -> url.contains("plain"));
        assertThat(urls).anyMatch(url -> url.endsWith("tag=traced"));
    }

    @Test
    void aTraceparentSetByTheApplicationIsReplacedByTheClientSpans() {
        ClientAppRun run = enabled();
        assertChildCall(run, "replace", run.port(), "/ok?tag=replace");
        assertThat(run.receivedTraceparent("replace")).doesNotContain("0af7651916cd43dd8448eb211c80319c");
    }

    @Test
    void aRedirectIsOneClientCallPerRequestOnTheWire() {
        ClientAppRun run = enabled();
        TraceContext root = run.root("redirect");
        assertThat(root).isNotNull();
        JsonNode trace = awaitTrace(root, 2);
        JsonNode redirect = null;
        for (JsonNode span : spans(trace, "CLIENT")) {
            if (span.path("tags").path("http.url").asText().endsWith("/redirect?tag=redirect")) {
                redirect = span;
            }
        }
        assertThat(redirect).as("the first request's span in %s", trace).isNotNull();
        assertThat(redirect.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
        assertThat(redirect.path("tags").path("http.status_code").asText()).isEqualTo("302");
        assertThat(redirect.path("status").asText()).isNotEqualTo("ERROR");
        assertReceivedFrom(run.first("RECEIVED", "redirect"), root, redirect);
        assertThat(run.first("STATUS", "redirect").get("body")).isEqualTo("hello-redirect-target");
        TraceContext followUp = TraceContext.parse(run.receivedTraceparent("redirect-target"));
        if (followUp.spanId().equalsIgnoreCase(redirect.path("spanId").asText())) {
            // Jetty sent the follow-up from its own thread, where no span is current, with the first one's headers
            assertThat(spans(trace, "CLIENT")).as("no span of its own in %s", trace).hasSize(1);
        } else {
            // Jetty sent it from a thread where the request's span was current (the caller's, when the 302 came
            // in before its send returned): a call of its own, the root's child, whose context the server got
            JsonNode both = awaitTrace(root, 3);
            JsonNode target = null;
            for (JsonNode span : spans(both, "CLIENT")) {
                if (span.path("spanId").asText().equalsIgnoreCase(followUp.spanId())) {
                    target = span;
                }
            }
            assertThat(target).as("the follow-up's span in %s", both).isNotNull();
            assertThat(target.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
            assertThat(target.path("tags").path("http.url").asText()).endsWith("/ok?tag=redirect-target");
            assertThat(target.path("tags").path("http.status_code").asText()).isEqualTo("200");
        }
    }

    @Test
    void concurrentSyncAndAsyncCallsEachGetTheirOwnSpan() {
        ClientAppRun run = enabled();
        Set<String> threads = new HashSet<>();
        for (int t = 0; t < Calls.CONCURRENT_THREADS; t++) {
            for (int i = 0; i < Calls.CONCURRENT_CALLS; i++) {
                String tag = "conc" + t + "_" + i;
                assertChildCall(run, tag, run.port(), "/ok?tag=" + tag);
                threads.add(run.first("STATUS", tag).get("thread"));
            }
        }
        assertThat(threads).containsExactlyInAnyOrder("sync", "async");
    }

    @Test
    void inboundTracestateIsPassedOn() {
        ClientAppRun run = enabled();
        assertTracestatePassedOn(run, "tracestate");
    }

    @Test
    void disabledPluginRecordsAndInstrumentsNothing() {
        ClientAppRun run = disabled();
        for (String tag : List.of("traced", "async-traced", "post", "plain0", "aplain0", "tracestate", "conc0_0", "conc0_1")) {
            assertThat(run.has("STATUS", tag)).as(tag).isTrue();
            assertThat(run.receivedTraceparent(tag)).as(tag).isNull();
        }
        assertThat(run.first("STATUS", "missing").get("code")).isEqualTo("404");
        assertNoClientRecorded(run, "traced");
        assertThat(run.app.output()).doesNotContain("instrumented org.eclipse.jetty.client");
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isZero();
    }

    // ---- shared assertions

    static void assertTracedCall(ClientAppRun run, String tag, String thread) {
        assertTracedGet(run, tag);
        assertThat(run.first("STATUS", tag).get("thread")).isEqualTo(thread);
        JsonNode post = clientSpan(run, "post");
        assertThat(post.path("name").asText()).isEqualTo("POST 127.0.0.1");
        assertThat(run.first("STATUS", "post").get("body")).isEqualTo("payload");
        assertThat(agentGauge(run.service, "agent.advice.errors")).isZero();
    }

    static void assertCounts(ClientAppRun run) {
        awaitAllMetricsStored(run);
        List<JsonNode> rows = clientRows(run, "127.0.0.1");
        long ok = 1 + 1 + 1 + 1 + Calls.PLAIN_CALLS + Calls.ASYNC_PLAIN_CALLS + 1
                + (long) Calls.CONCURRENT_THREADS * Calls.CONCURRENT_CALLS;
        assertRow(rows, "GET", 200, ok, 0);
        assertRow(rows, "POST", 200, 1, 0);
        assertRow(rows, "GET", 302, 1, 0);
        assertRow(rows, "GET", 404, 1, 1);
        assertRow(rows, "GET", 500, 1, 1);
        assertRow(rows, "GET", 0, 2, 2); // connection refused, sync and async
        assertThat(rows).as("no other client rows: %s", rows).hasSize(6);
        assertThat(clientRows(run, null)).hasSize(6);
        // one more flush changes nothing
        long before = System.currentTimeMillis();
        CollectorClient.await("a later metrics flush", WAIT, () -> latestFlush(run.service), t -> t > before + 1000);
        assertThat(clientRows(run, "127.0.0.1")).isEqualTo(rows);
    }
}
