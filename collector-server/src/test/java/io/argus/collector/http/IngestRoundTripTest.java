package io.argus.collector.http;

import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real TCP ingest (handshake, spans, metrics, heartbeat) from two agents, then every HTTP endpoint checked
 * for exact values.
 */
class IngestRoundTripTest {
    static final long MS = 1_000_000L;
    static final long BASE = 1_700_000_000_000L * MS; // epoch nanos
    static final long[] BOUNDS = {1 * MS, 2 * MS, 5 * MS, 10 * MS};

    // trace 1 crosses front -> back
    static final long T1_HI = 0x0af7651916cd43ddL;
    static final long T1_LO = 0x8448eb211c80319cL;
    static final String T1 = "0af7651916cd43dd8448eb211c80319c";
    static final long S1 = 0xb7ad6b7169203331L;
    static final long S2 = 0x00f067aa0ba902b7L;
    static final long S3 = 0xfedcba9876543210L; // high bit set: must still print as unsigned hex
    static final String T2 = "000000000000000000000000000000a2";
    static final String T3 = "000000000000000000000000000000a3";
    static final String T4 = "ffffffffffffffff00000000000000a4";

    @TempDir
    static Path dataDir;
    static Collector collector;
    static Api api;

    @BeforeAll
    static void ingest() throws Exception {
        collector = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).build());
        api = new Api(collector);
        try (TestAgent front = new TestAgent(collector.ingestPort());
             TestAgent back = new TestAgent(collector.ingestPort())) {
            front.hello("front", "front-1");
            back.hello("back", "back-1");
            front.spans(SpanBatch.newBuilder()
                    .addSpans(span(T1_HI, T1_LO, S1, 0, SpanKind.SPAN_KIND_SERVER, "GET /front/call", BASE,
                            12_500_000L, SpanStatus.SPAN_STATUS_OK, "http.method", "GET", "http.status_code", "200",
                            "note", "quote \" backslash \\ newline \n unicode \u00e9\u4e2d"))
                    .addSpans(span(T1_HI, T1_LO, S2, S1, SpanKind.SPAN_KIND_CLIENT, "GET /back/data", BASE + MS,
                            10 * MS, SpanStatus.SPAN_STATUS_UNSET, "peer", "back:8080"))
                    .addSpans(span(0, 0xa2, 0x21, 0, SpanKind.SPAN_KIND_SERVER, "GET /front/other", BASE + 100 * MS,
                            3 * MS, SpanStatus.SPAN_STATUS_ERROR))
                    // trace 4 has no root stored: its earliest span stands in
                    .addSpans(span(-1L, 0xa4, 0x42, 0x99, SpanKind.SPAN_KIND_INTERNAL, "orphan work",
                            BASE + 300 * MS, 7 * MS, SpanStatus.SPAN_STATUS_OK))
                    .addSpans(span(-1L, 0xa4, 0x43, 0x42, SpanKind.SPAN_KIND_INTERNAL, "orphan child",
                            BASE + 301 * MS, 1 * MS, SpanStatus.SPAN_STATUS_OK))
                    .build());
            back.spans(SpanBatch.newBuilder()
                    .addSpans(span(T1_HI, T1_LO, S3, S2, SpanKind.SPAN_KIND_SERVER, "GET /back/data", BASE + 2 * MS,
                            8 * MS, SpanStatus.SPAN_STATUS_OK))
                    .addSpans(span(0, 0xa3, 0x31, 0, SpanKind.SPAN_KIND_SERVER, "GET /back/health", BASE + 200 * MS,
                            500_000L, SpanStatus.SPAN_STATUS_OK))
                    .build());
            // two flush intervals of the same server cell, plus a client cell and one with overflow
            front.metrics(MetricBatch.newBuilder()
                    .setTimestampMs(1_000).setIntervalMs(10_000)
                    .addAllBucketBoundsNanos(List.of(BOUNDS[0], BOUNDS[1], BOUNDS[2], BOUNDS[3]))
                    .addCalls(call(CallMetricKind.CALL_METRIC_KIND_SERVER, "GET", "/front/call", 200, 60, 0, 90 * MS,
                            MS / 2, 4 * MS, 10, 50))
                    .addCalls(call(CallMetricKind.CALL_METRIC_KIND_CLIENT, "GET", "back:8080", 200, 10, 1, 30 * MS,
                            2 * MS, 5 * MS, 0, 5, 5))
                    .addJvm(gauge("heap.used", 100))
                    .addJvm(gauge("threads.live", 10))
                    .addJvm(gauge("cpu.process", Double.NaN))
                    .build());
            front.metrics(MetricBatch.newBuilder()
                    .setTimestampMs(2_000).setIntervalMs(10_000)
                    .addAllBucketBoundsNanos(List.of(BOUNDS[0], BOUNDS[1], BOUNDS[2], BOUNDS[3]))
                    .addCalls(call(CallMetricKind.CALL_METRIC_KIND_SERVER, "GET", "/front/call", 200, 40, 2, 200 * MS,
                            8 * MS / 10, 12 * MS, 0, 0, 30, 10))
                    .addCalls(call(CallMetricKind.CALL_METRIC_KIND_SERVER, "GET", "/front/slow", 200, 4, 0, 80 * MS,
                            6 * MS, 40 * MS, 0, 0, 0, 2, 2))
                    .addJvm(gauge("heap.used", 200))
                    .addJvm(gauge("threads.live", 11))
                    .build());
            front.metrics(MetricBatch.newBuilder()
                    .setTimestampMs(3_000).setIntervalMs(10_000)
                    .addJvm(gauge("heap.used", 300))
                    .addJvm(gauge("threads.live", 12))
                    .build());
            // 65 samples of one gauge: only the last 60 are served
            for (int i = 1; i <= 65; i++) {
                front.metrics(MetricBatch.newBuilder().setTimestampMs(10_000 + i).addJvm(gauge("gc.count", i)).build());
            }
            back.metrics(MetricBatch.newBuilder().setTimestampMs(5_000).addJvm(gauge("heap.used", 42)).build());
            front.heartbeat(Heartbeat.newBuilder().setTimestampMs(1_700_000_000_500L).setDroppedSpans(5)
                    .setDroppedMetrics(1).setAdviceErrors(2).setSentSpans(100).build());
            api.awaitMetric("argus_collector_spans_stored_total", 7);
            api.await("/api/agents", a -> a.size() == 2 && a.get(1).get("sentSpans").asLong() == 100);
            assertThat(collector.flush(Duration.ofSeconds(10))).isTrue();
        }
    }

    static CallMetric call(CallMetricKind kind, String method, String target, int status, long count, long errors,
                     long sum, long min, long max, long... buckets) {
        CallMetric.Builder b = CallMetric.newBuilder().setKind(kind).setMethod(method).setTarget(target)
                .setStatus(status).setCount(count).setErrors(errors).setSumNanos(sum).setMinNanos(min)
                .setMaxNanos(max);
        for (long c : buckets) {
            b.addBucketCounts(c);
        }
        return b.build();
    }

    static Gauge gauge(String name, double value) {
        return Gauge.newBuilder().setName(name).setValue(value).build();
    }

    @AfterAll
    static void stop() {
        if (collector != null) {
            collector.close();
        }
    }

    @Test
    void services() {
        JsonNode services = api.json("/api/services");
        assertThat(services).hasSize(2);
        assertThat(services.get(0).get("service").asText()).isEqualTo("back");
        assertThat(services.get(0).get("instances").get(0).asText()).isEqualTo("back-1");
        assertThat(services.get(1).get("service").asText()).isEqualTo("front");
        assertThat(services.get(1).get("instances")).hasSize(1);
        assertThat(services.get(1).get("instances").get(0).asText()).isEqualTo("front-1");
        long now = System.currentTimeMillis();
        assertThat(services.get(1).get("lastSeenMs").asLong()).isBetween(now - 60_000, now);
        assertThat(fieldNames(services.get(1))).containsExactly("service", "instances", "lastSeenMs");
    }

    @Test
    void tracesNewestFirst() {
        JsonNode traces = api.json("/api/traces");
        assertThat(ids(traces)).containsExactly(T4, T3, T2, T1);
        JsonNode t1 = traces.get(3);
        assertThat(fieldNames(t1)).containsExactly("traceId", "rootName", "service", "startEpochMs", "durationMs",
                "spanCount");
        assertThat(t1.get("rootName").asText()).isEqualTo("GET /front/call");
        assertThat(t1.get("service").asText()).isEqualTo("front");
        assertThat(t1.get("startEpochMs").asLong()).isEqualTo(1_700_000_000_000L);
        assertThat(t1.get("durationMs").asDouble()).isEqualTo(12.5);
        assertThat(t1.get("spanCount").asLong()).isEqualTo(3);

        JsonNode t4 = traces.get(0);
        assertThat(t4.get("rootName").asText()).isEqualTo("orphan work");
        assertThat(t4.get("durationMs").asDouble()).isEqualTo(7.0);
        assertThat(t4.get("spanCount").asLong()).isEqualTo(2);
        assertThat(t4.get("startEpochMs").asLong()).isEqualTo(1_700_000_000_300L);

        JsonNode t3 = traces.get(1);
        assertThat(t3.get("service").asText()).isEqualTo("back");
        assertThat(t3.get("durationMs").asDouble()).isEqualTo(0.5);
    }

    @Test
    void traceFilters() {
        assertThat(ids(api.json("/api/traces?service=front"))).containsExactly(T4, T2, T1);
        // trace 1 has a back span, but its root is front's
        assertThat(ids(api.json("/api/traces?service=back"))).containsExactly(T3);
        assertThat(ids(api.json("/api/traces?service=nobody"))).isEmpty();
        assertThat(ids(api.json("/api/traces?minDurationMs=5"))).containsExactly(T4, T1);
        assertThat(ids(api.json("/api/traces?minDurationMs=12.5"))).containsExactly(T1);
        assertThat(ids(api.json("/api/traces?minDurationMs=12.6"))).isEmpty();
        assertThat(ids(api.json("/api/traces?limit=2"))).containsExactly(T4, T3);
        assertThat(ids(api.json("/api/traces?limit=1&service=front&minDurationMs=0.1"))).containsExactly(T4);
        // more than the maximum is an error naming it, never a silently shortened answer
        assertThat(api.get("/api/traces?limit=100000").status()).isEqualTo(400);
    }

    @Test
    void traceDetail() {
        JsonNode trace = api.json("/api/traces/" + T1);
        assertThat(fieldNames(trace)).containsExactly("traceId", "spans");
        assertThat(trace.get("traceId").asText()).isEqualTo(T1);
        JsonNode spans = trace.get("spans");
        assertThat(spans).hasSize(3);
        JsonNode root = spans.get(0);
        assertThat(fieldNames(root)).containsExactly("spanId", "parentSpanId", "service", "instance", "kind", "name",
                "startEpochNanos", "durationNanos", "status", "tags");
        assertThat(root.get("spanId").asText()).isEqualTo("b7ad6b7169203331");
        assertThat(root.get("parentSpanId").isNull()).isTrue();
        assertThat(root.get("service").asText()).isEqualTo("front");
        assertThat(root.get("instance").asText()).isEqualTo("front-1");
        assertThat(root.get("kind").asText()).isEqualTo("SERVER");
        assertThat(root.get("name").asText()).isEqualTo("GET /front/call");
        assertThat(root.get("startEpochNanos").asLong()).isEqualTo(BASE);
        assertThat(root.get("durationNanos").asLong()).isEqualTo(12_500_000L);
        assertThat(root.get("status").asText()).isEqualTo("OK");
        assertThat(root.get("tags").get("http.method").asText()).isEqualTo("GET");
        assertThat(root.get("tags").get("http.status_code").asText()).isEqualTo("200");
        assertThat(root.get("tags").get("note").asText())
                .isEqualTo("quote \" backslash \\ newline \n unicode \u00e9\u4e2d");

        JsonNode client = spans.get(1);
        assertThat(client.get("spanId").asText()).isEqualTo("00f067aa0ba902b7");
        assertThat(client.get("parentSpanId").asText()).isEqualTo("b7ad6b7169203331");
        assertThat(client.get("kind").asText()).isEqualTo("CLIENT");
        assertThat(client.get("status").asText()).isEqualTo("UNSET");
        assertThat(client.get("tags").get("peer").asText()).isEqualTo("back:8080");

        JsonNode server = spans.get(2);
        assertThat(server.get("spanId").asText()).isEqualTo("fedcba9876543210");
        assertThat(server.get("parentSpanId").asText()).isEqualTo("00f067aa0ba902b7");
        assertThat(server.get("service").asText()).isEqualTo("back");
        assertThat(server.get("instance").asText()).isEqualTo("back-1");
        assertThat(server.get("tags").size()).isZero();

        JsonNode error = api.json("/api/traces/" + T2).get("spans").get(0);
        assertThat(error.get("status").asText()).isEqualTo("ERROR");

        JsonNode orphan = api.json("/api/traces/" + T4).get("spans");
        assertThat(orphan.get(0).get("parentSpanId").asText()).isEqualTo("0000000000000099");

        // upper-case ids are accepted
        assertThat(api.json("/api/traces/" + T1.toUpperCase()).get("traceId").asText()).isEqualTo(T1);
    }

    @Test
    void traceErrors() {
        Api.Response unknown = api.get("/api/traces/00000000000000000000000000000bad");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.contentType()).startsWith("application/json");
        assertThat(unknown.json().get("error").asText()).contains("not found");

        for (String bad : List.of("xyz", "0af7651916cd43dd8448eb211c80319", "0af7651916cd43dd8448eb211c80319g",
                "0af7651916cd43dd8448eb211c80319c0")) {
            Api.Response r = api.get("/api/traces/" + bad);
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.json().get("error").asText()).contains("malformed trace id");
        }
    }

    @Test
    void httpMetrics() {
        JsonNode all = api.json("/api/metrics/http");
        assertThat(all).hasSize(3);
        JsonNode call = all.get(0);
        assertThat(fieldNames(call)).containsExactly("service", "kind", "method", "target", "status", "count",
                "errors", "avgMs", "minMs", "maxMs", "p95Ms", "p99Ms");
        assertThat(call.get("service").asText()).isEqualTo("front");
        assertThat(call.get("kind").asText()).isEqualTo("server");
        assertThat(call.get("method").asText()).isEqualTo("GET");
        assertThat(call.get("target").asText()).isEqualTo("/front/call");
        assertThat(call.get("status").asInt()).isEqualTo(200);
        assertThat(call.get("count").asLong()).isEqualTo(100);
        assertThat(call.get("errors").asLong()).isEqualTo(2);
        assertThat(call.get("avgMs").asDouble()).isEqualTo(2.9);
        assertThat(call.get("minMs").asDouble()).isEqualTo(0.5);
        assertThat(call.get("maxMs").asDouble()).isEqualTo(12.0);
        // merged buckets [10, 50, 30, 10]: rank 95 and 99 fall in (5 ms, 10 ms]
        assertThat(call.get("p95Ms").asDouble()).isEqualTo(7.5);
        assertThat(call.get("p99Ms").asDouble()).isEqualTo(9.5);

        JsonNode client = all.get(1);
        assertThat(client.get("kind").asText()).isEqualTo("client");
        assertThat(client.get("target").asText()).isEqualTo("back:8080");
        assertThat(client.get("count").asLong()).isEqualTo(10);
        assertThat(client.get("errors").asLong()).isEqualTo(1);
        assertThat(client.get("avgMs").asDouble()).isEqualTo(3.0);
        assertThat(client.get("p95Ms").asDouble()).isEqualTo(4.7);
        assertThat(client.get("p99Ms").asDouble()).isEqualTo(4.94);

        JsonNode slow = all.get(2);
        assertThat(slow.get("target").asText()).isEqualTo("/front/slow");
        // overflow bucket: (10 ms, observed max 40 ms]
        assertThat(slow.get("p95Ms").asDouble()).isEqualTo(37.0);
        assertThat(slow.get("p99Ms").asDouble()).isEqualTo(39.4);
        assertThat(slow.get("minMs").asDouble()).isEqualTo(6.0);
        assertThat(slow.get("maxMs").asDouble()).isEqualTo(40.0);

        JsonNode clientOnly = api.json("/api/metrics/http?service=front&kind=client");
        assertThat(clientOnly).hasSize(1);
        assertThat(clientOnly.get(0).get("target").asText()).isEqualTo("back:8080");
        assertThat(api.json("/api/metrics/http?kind=server")).hasSize(2);
        assertThat(api.json("/api/metrics/http?service=back")).isEmpty();

        Api.Response bad = api.get("/api/metrics/http?kind=bogus");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("error").asText()).contains("kind");
    }

    @Test
    void jvmMetrics() {
        JsonNode jvm = api.json("/api/metrics/jvm?service=front");
        assertThat(fieldNames(jvm)).containsExactly("service", "instances");
        assertThat(jvm.get("service").asText()).isEqualTo("front");
        assertThat(jvm.get("instances")).hasSize(1);
        JsonNode inst = jvm.get("instances").get(0);
        assertThat(fieldNames(inst)).containsExactly("instance", "latest", "series");
        assertThat(inst.get("instance").asText()).isEqualTo("front-1");
        assertThat(inst.get("latest").get("heap.used").asDouble()).isEqualTo(300.0);
        assertThat(inst.get("latest").get("threads.live").asDouble()).isEqualTo(12.0);
        assertThat(inst.get("latest").get("gc.count").asDouble()).isEqualTo(65.0);
        assertThat(inst.get("latest").has("cpu.process")).isFalse(); // NaN samples are skipped
        assertThat(inst.get("series").get("heap.used").toString()).isEqualTo("[[1000,100.0],[2000,200.0],[3000,300.0]]");
        JsonNode gc = inst.get("series").get("gc.count");
        assertThat(gc).hasSize(60);
        assertThat(gc.get(0).get(0).asLong()).isEqualTo(10_006);
        assertThat(gc.get(59).get(0).asLong()).isEqualTo(10_065);

        JsonNode back = api.json("/api/metrics/jvm?service=back");
        assertThat(back.get("instances").get(0).get("latest").get("heap.used").asDouble()).isEqualTo(42.0);
        assertThat(api.json("/api/metrics/jvm?service=nobody").get("instances")).isEmpty();
        assertThat(api.get("/api/metrics/jvm").status()).isEqualTo(400);
    }

    @Test
    void agents() {
        JsonNode agents = api.json("/api/agents");
        assertThat(agents).hasSize(2);
        JsonNode front = agents.get(1);
        assertThat(front.get("service").asText()).isEqualTo("front");
        assertThat(front.get("instance").asText()).isEqualTo("front-1");
        assertThat(front.get("agentVersion").asText()).isEqualTo("0.1.0-test");
        assertThat(front.get("host").asText()).isEqualTo("test-host");
        assertThat(front.get("pid").asLong()).isEqualTo(4242);
        assertThat(front.get("runtimeVersion").asText()).isEqualTo("17.0.15");
        assertThat(front.get("startTimeMs").asLong()).isEqualTo(1_700_000_000_000L);
        assertThat(front.get("startupMode").asText()).isEqualTo("parallel");
        assertThat(front.get("observingSinceMs").asLong()).isEqualTo(1_700_000_000_100L);
        assertThat(front.get("protocolVersion").asInt()).isEqualTo(1);
        assertThat(front.get("remoteAddress").asText()).startsWith("127.0.0.1:");
        assertThat(front.get("lastHeartbeatMs").asLong()).isEqualTo(1_700_000_000_500L);
        assertThat(front.get("droppedSpans").asLong()).isEqualTo(5);
        assertThat(front.get("droppedMetrics").asLong()).isEqualTo(1);
        assertThat(front.get("adviceErrors").asLong()).isEqualTo(2);
        assertThat(front.get("sentSpans").asLong()).isEqualTo(100);
        assertThat(front.get("spansReceived").asLong()).isEqualTo(5);
        assertThat(agents.get(0).get("spansReceived").asLong()).isEqualTo(2);
    }

    @Test
    void prometheusMetrics() {
        Api.Response r = api.get("/metrics");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("text/plain");
        assertThat(api.metric("argus_collector_frames_received_total{type=\"handshake\"}")).isEqualTo(2);
        assertThat(api.metric("argus_collector_frames_received_total{type=\"spans\"}")).isEqualTo(2);
        assertThat(api.metric("argus_collector_frames_received_total{type=\"metrics\"}")).isEqualTo(69);
        assertThat(api.metric("argus_collector_frames_received_total{type=\"heartbeat\"}")).isEqualTo(1);
        assertThat(api.metric("argus_collector_spans_received_total")).isEqualTo(7);
        assertThat(api.metric("argus_collector_spans_stored_total")).isEqualTo(7);
        assertThat(api.metric("argus_collector_frames_rejected_total{reason=\"bad_protobuf\"}")).isZero();
        assertThat(api.metric("argus_collector_store_queue_depth")).isZero();
        assertThat(r.body()).contains("argus_collector_storage_write_seconds_count");
        assertThat(r.body()).contains("jvm_memory_used_bytes");
    }

    @Test
    void uiAndErrors() {
        Api.Response ui = api.get("/");
        assertThat(ui.status()).isEqualTo(200);
        assertThat(ui.contentType()).startsWith("text/html");
        assertThat(ui.body()).contains("<title>Argus collector</title>")
                .doesNotContain("src=\"http", "href=\"http", "@import", "cdn."); // self-contained

        Api.Response missing = api.get("/api/nothing");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.json().get("error").asText()).contains("/api/nothing");
        Api.Response icon = api.get("/favicon.ico");
        assertThat(icon.status()).isEqualTo(200);
        assertThat(icon.contentType()).isEqualTo("image/x-icon");

        for (String q : List.of("limit=abc", "limit=0", "limit=-3", "limit=1.5", "minDurationMs=fast",
                "minDurationMs=-1", "minDurationMs=NaN")) {
            Api.Response r = api.get("/api/traces?" + q);
            assertThat(r.status()).as(q).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/json");
            assertThat(r.json().get("error").asText()).as(q).isNotBlank();
            assertThat(r.json().get("status").asInt()).isEqualTo(400);
        }
    }

    private static List<String> ids(JsonNode traces) {
        List<String> out = new ArrayList<>();
        traces.forEach(t -> out.add(t.get("traceId").asText()));
        return out;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
