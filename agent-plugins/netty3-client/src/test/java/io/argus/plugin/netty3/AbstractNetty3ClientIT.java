package io.argus.plugin.netty3;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.netty3.app.Netty3ClientApp;
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
 * The plugin against one real Netty 3 version: the Druid-style test client runs in a forked JVM with
 * the assembled agent (target/agent) and that version's jar, and reports to a real collector in
 * this JVM. Each application run is started once per class and shared by the tests that read it.
 */
abstract class AbstractNetty3ClientIT extends AbstractClientPluginIT {

    /** The Netty 3 version under test (a folder of target/netty3/). */
    abstract String version();

    String classpath() {
        return libraryClasspath(System.getProperty("argus.test.netty3.app"),
                Paths.get(System.getProperty("argus.test.netty3.jars"), version()));
    }

    ClientAppRun run(String mode, String javaHome, double samplingRate, Map<String, String> agentProperties) {
        String service = "netty3-" + version() + "-" + mode + "-" + jdkLabel(javaHome);
        return RUNS.computeIfAbsent(service, k -> ClientAppRun.startGated(application(Netty3ClientApp.class.getName(),
                javaHome, classpath(), service, samplingRate, agentProperties), service, api)).done();
    }

    ClientAppRun enabled() {
        return run("on", JDK, 100, Map.of());
    }

    ClientAppRun disabled() {
        return run("off", JDK, 100, Map.of("argus.plugin.netty3-client.enabled", "false"));
    }

    // ---- tests on the enabled run (JDK 17, 100%)

    @Test
    void tracedCallIsAClientSpanUnderTheCallersSpanAndItsTraceparentReachesTheServer() {
        assertTracedCall(enabled());
    }

    @Test
    void chunkedAndLargeResponsesEndOnceAtTheirLastChunk() {
        ClientAppRun run = enabled();
        JsonNode chunked = clientSpan(run, "chunked");
        assertThat(chunked.path("tags").path("http.status_code").asText()).isEqualTo("200");
        // ended at the last chunk, which the server sent after a pause, not at the response head
        assertThat(chunked.path("durationNanos").asLong()).isGreaterThanOrEqualTo(Netty3ClientApp.CHUNK_PAUSE_MS * 1_000_000);
        assertThat(run.first("STATUS", "chunked").get("body")).isEqualTo("part1-part2");
        assertThat(Integer.parseInt(run.first("STATUS", "chunked").get("chunks"))).isGreaterThanOrEqualTo(1);

        JsonNode big = clientSpan(run, "big");
        assertThat(big.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(run.first("STATUS", "big").get("length")).isEqualTo(String.valueOf(Netty3ClientApp.BIG_BODY));
        assertThat(Integer.parseInt(run.first("STATUS", "big").get("chunks"))).as("the body came in chunks").isGreaterThan(1);

        // responses that have no body end at their head, whatever their headers say
        JsonNode head = clientSpan(run, "head");
        assertThat(head.path("name").asText()).isEqualTo("HEAD 127.0.0.1");
        assertThat(head.path("tags").path("http.status_code").asText()).isEqualTo("200");
        assertThat(run.first("STATUS", "head").get("code")).isEqualTo("200");
        assertThat(clientSpan(run, "nocontent").path("tags").path("http.status_code").asText()).isEqualTo("204");
        assertThat(run.first("STATUS", "nocontent").get("code")).isEqualTo("204");

        JsonNode post = clientSpan(run, "post");
        assertThat(post.path("name").asText()).isEqualTo("POST 127.0.0.1");
        assertThat(run.first("STATUS", "post").get("body")).isEqualTo("payload");
        assertThat(run.first("RECEIVED", "post").get("method")).isEqualTo("POST");
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

        // the server closed the connection without answering
        JsonNode reset = clientSpan(run, "reset");
        assertThat(reset.path("status").asText()).isEqualTo("ERROR");
        assertThat(reset.path("tags").path("error").asText()).isNotEmpty();

        // a pool channel that could not connect: nothing was written, so there is no client span
        TraceContext refusedRoot = run.root("refused");
        JsonNode refusedTrace = awaitTrace(refusedRoot, 1);
        assertThat(refusedTrace.path("spans")).hasSize(1);
        assertThat(run.has("RECEIVED", "refused")).isFalse();

        // the caller gets exactly what it gets without the plugin
        ClientAppRun baseline = disabled();
        for (String tag : List.of("reset", "refused")) {
            Map<String, String> error = run.first("ERROR", tag);
            Map<String, String> expected = baseline.first("ERROR", tag);
            assertThat(error.get("class")).as(tag).isEqualTo(expected.get("class"));
            assertThat(error.get("message")).as(tag).isEqualTo(expected.get("message"));
        }
    }

    @Test
    void callsWithoutACurrentSpanAreCountedButNeitherTracedNorGivenHeaders() {
        ClientAppRun run = enabled();
        Set<String> channels = new HashSet<>();
        for (int i = 0; i < Netty3ClientApp.PLAIN_CALLS; i++) {
            assertThat(run.receivedTraceparent("plain" + i)).as("plain%d", i).isNull();
            assertThat(run.first("RECEIVED", "plain" + i).get("tracestate")).isEqualTo("null");
            assertThat(run.first("STATUS", "plain" + i).get("code")).isEqualTo("200");
            assertThat(run.first("STATUS", "plain" + i).get("body")).isEqualTo("hello-plain" + i);
            channels.add(run.first("STATUS", "plain" + i).get("channel"));
        }
        assertThat(channels).as("the untraced calls ran on one kept-alive connection").hasSize(1);
        awaitAllMetricsStored(run);
        List<String> urls = clientUrls(run);
        assertThat(urls).noneMatch(url -> url.contains("tag=plain"));
        assertThat(urls).anyMatch(url -> url.endsWith("tag=traced"));
    }

    @Test
    void concurrentCallsOnSeveralConnectionsEachGetTheirOwnSpan() {
        ClientAppRun run = enabled();
        Set<String> channels = new HashSet<>();
        for (int t = 0; t < Netty3ClientApp.CONCURRENT_THREADS; t++) {
            for (int i = 0; i < Netty3ClientApp.CONCURRENT_CALLS; i++) {
                String tag = "conc" + t + "_" + i;
                assertChildCall(run, tag, run.port(), "/ok?tag=" + tag);
                channels.add(run.first("STATUS", tag).get("channel"));
            }
        }
        assertThat(channels).as("connections used by the concurrent calls").hasSizeGreaterThan(1);
    }

    @Test
    void pipelinedRequestsOnOneConnectionAreMatchedInOrder() {
        ClientAppRun run = enabled();
        TraceContext root = run.root("pipelined");
        JsonNode trace = awaitTrace(root, 1 + Netty3ClientApp.PIPELINED);
        Set<String> clientSpanIds = new HashSet<>();
        for (JsonNode span : trace.path("spans")) {
            if ("CLIENT".equals(span.path("kind").asText())) {
                assertThat(span.path("parentSpanId").asText()).isEqualToIgnoringCase(root.spanId());
                assertThat(span.path("tags").path("http.status_code").asText()).isEqualTo("200");
                clientSpanIds.add(span.path("spanId").asText().toLowerCase());
            }
        }
        assertThat(clientSpanIds).hasSize(Netty3ClientApp.PIPELINED);
        Set<String> received = new HashSet<>();
        for (int i = 0; i < Netty3ClientApp.PIPELINED; i++) {
            assertThat(run.first("STATUS", "pipe" + i).get("body")).isEqualTo("hello-pipe" + i);
            TraceContext sent = TraceContext.parse(run.receivedTraceparent("pipe" + i));
            assertThat(sent.traceId()).isEqualTo(root.traceId());
            received.add(sent.spanId());
            // each span carries the URL of its own request
            JsonNode span = spanById(trace, sent.spanId());
            assertThat(span.path("tags").path("http.url").asText())
                    .isEqualTo("http://127.0.0.1:" + run.serverPort("pipelinePort") + "/ok?tag=pipe" + i);
        }
        assertThat(received).isEqualTo(clientSpanIds);
    }

    @Test
    void inboundTracestateIsPassedOn() {
        ClientAppRun run = enabled();
        assertTracestatePassedOn(run, "tracestate");
    }

    @Test
    void disabledPluginRecordsAndInstrumentsNothing() {
        ClientAppRun run = disabled();
        for (String tag : List.of("traced", "chunked", "big", "post", "plain0", "tracestate", "conc0_0", "pipe0")) {
            assertThat(run.has("STATUS", tag)).as(tag).isTrue();
            assertThat(run.receivedTraceparent(tag)).as(tag).isNull();
        }
        assertThat(run.first("STATUS", "missing").get("code")).isEqualTo("404");
        // the hand-made server span is recorded by the core; the plugin adds nothing to it
        assertNoClientRecorded(run, "traced");
        assertThat(agentGauge(run.service, "agent.classes.transformed")).isZero();
    }

    // ---- shared assertions

    static void assertTracedCall(ClientAppRun run) {
        assertTracedGet(run, "traced");
        assertThat(agentGauge(run.service, "agent.advice.errors")).isZero();
    }

    static void assertCounts(ClientAppRun run) {
        awaitAllMetricsStored(run);
        List<JsonNode> rows = clientRows(run, "127.0.0.1");
        long ok = 1 + 1 + 1 + Netty3ClientApp.PLAIN_CALLS + 1
                + (long) Netty3ClientApp.CONCURRENT_THREADS * Netty3ClientApp.CONCURRENT_CALLS + Netty3ClientApp.PIPELINED;
        assertRow(rows, "GET", 200, ok, 0);
        assertRow(rows, "POST", 200, 1, 0);
        assertRow(rows, "GET", 404, 1, 1);
        assertRow(rows, "GET", 500, 1, 1);
        assertRow(rows, "GET", 0, 1, 1); // /reset: no response
        assertRow(rows, "HEAD", 200, 1, 0);
        assertRow(rows, "GET", 204, 1, 0);
        assertThat(rows).as("no other client rows: %s", rows).hasSize(7);
        assertThat(clientRows(run, null)).hasSize(7);
        // one more flush changes nothing
        long before = System.currentTimeMillis();
        CollectorClient.await("a later metrics flush", WAIT, () -> latestFlush(run.service), t -> t > before + 1000);
        assertThat(clientRows(run, "127.0.0.1")).isEqualTo(rows);
    }

    static JsonNode spanById(JsonNode trace, String spanId) {
        for (JsonNode span : trace.path("spans")) {
            if (span.path("spanId").asText().equalsIgnoreCase(spanId)) {
                return span;
            }
        }
        throw new AssertionError("no span " + spanId + " in " + trace);
    }
}
