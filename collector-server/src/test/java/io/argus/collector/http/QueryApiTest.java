package io.argus.collector.http;

import static io.argus.collector.http.IngestRoundTripTest.call;
import static io.argus.collector.http.IngestRoundTripTest.gauge;
import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query API behind the UI's views (time ranges, RED and JVM series, service map, trace search) against a
 * real collector with DuckDB, fed over real ingest connections by two agents, {@code web} and {@code api}.
 * The data sits in five minutes, {@code [T0, T0 + 5 min)}, a few minutes ago; one of each kind of row lies an
 * hour earlier, outside every range asked for.
 */
class QueryApiTest {
    static final long MS = 1_000_000L;
    static final long[] BOUNDS = {1 * MS, 2 * MS, 5 * MS, 10 * MS};
    /** A whole minute, ten to fifteen minutes ago. */
    static final long T0 = Math.floorDiv(System.currentTimeMillis() - 15 * 60_000, 60_000) * 60_000;
    static final String RANGE = "from=" + T0 + "&to=" + (T0 + 300_000);
    static final String A = "000000000000000000000000000000a1";
    static final String B = "000000000000000000000000000000b1";
    static final String C = "000000000000000000000000000000c1";
    static final String D = "000000000000000000000000000000d1";

    @TempDir
    static Path dataDir;
    static Collector collector;
    static Api api;

    static long ns(long epochMs) {
        return epochMs * MS;
    }

    @BeforeAll
    static void ingest() throws Exception {
        collector = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).build());
        api = new Api(collector);
        try (TestAgent web = new TestAgent(collector.ingestPort());
             TestAgent svc = new TestAgent(collector.ingestPort())) {
            web.hello("web", "web-1");
            svc.hello("api", "api-1");
            long a = ns(T0 + 10_000);
            long b = ns(T0 + 70_000);
            long c = ns(T0 + 130_000);
            web.spans(SpanBatch.newBuilder()
                    // A: web -> api -> postgres, all fine
                    .addSpans(span(0, 0xa1, 1, 0, SpanKind.SPAN_KIND_SERVER, "GET /checkout", a, 50 * MS,
                            SpanStatus.SPAN_STATUS_OK, "http.route", "/checkout", "http.status_code", "200"))
                    .addSpans(span(0, 0xa1, 2, 1, SpanKind.SPAN_KIND_CLIENT, "GET /api/items", a + MS, 30 * MS,
                            SpanStatus.SPAN_STATUS_OK, "peer", "api:8080"))
                    // B: web -> api, api fails
                    .addSpans(span(0, 0xb1, 1, 0, SpanKind.SPAN_KIND_SERVER, "GET /checkout", b, 200 * MS,
                            SpanStatus.SPAN_STATUS_ERROR, "http.route", "/checkout", "http.status_code", "502",
                            "customer", "vip"))
                    .addSpans(span(0, 0xb1, 2, 1, SpanKind.SPAN_KIND_CLIENT, "GET /api/items", b + MS, 180 * MS,
                            SpanStatus.SPAN_STATUS_ERROR, "peer", "api:8080"))
                    // C: web -> an untraced payment host
                    .addSpans(span(0, 0xc1, 1, 0, SpanKind.SPAN_KIND_SERVER, "GET /home", c, 10 * MS,
                            SpanStatus.SPAN_STATUS_OK))
                    .addSpans(span(0, 0xc1, 2, 1, SpanKind.SPAN_KIND_CLIENT, "POST", c + MS, 8 * MS,
                            SpanStatus.SPAN_STATUS_OK, "http.url", "https://pay.example.com:443/charge?x=1"))
                    // D: an hour before the range
                    .addSpans(span(0, 0xd1, 1, 0, SpanKind.SPAN_KIND_SERVER, "GET /checkout", ns(T0 - 3_600_000),
                            999 * MS, SpanStatus.SPAN_STATUS_OK, "http.route", "/checkout"))
                    .build());
            svc.spans(SpanBatch.newBuilder()
                    .addSpans(span(0, 0xa1, 3, 2, SpanKind.SPAN_KIND_SERVER, "GET /api/items", a + 2 * MS, 25 * MS,
                            SpanStatus.SPAN_STATUS_OK))
                    .addSpans(span(0, 0xa1, 4, 3, SpanKind.SPAN_KIND_CLIENT, "SELECT", a + 3 * MS, 5 * MS,
                            SpanStatus.SPAN_STATUS_OK, "db.system", "postgresql", "db.name", "shop"))
                    .addSpans(span(0, 0xb1, 3, 2, SpanKind.SPAN_KIND_SERVER, "GET /api/items", b + 2 * MS, 170 * MS,
                            SpanStatus.SPAN_STATUS_ERROR, "error", "boom"))
                    .build());
            // /checkout: 60 calls in T0's minute, 120 (6 failed) in the next; /home: 30 in the third
            web.metrics(cells(T0 + 10_000, call(CallMetricKind.CALL_METRIC_KIND_SERVER, "GET", "/checkout", 200, 60,
                    0, 60 * MS, MS / 2, 19 * MS / 10, 10, 50)));
            web.metrics(cells(T0 + 70_000, call(CallMetricKind.CALL_METRIC_KIND_SERVER, "GET", "/checkout", 200, 120,
                    6, 600 * MS, MS, 9 * MS, 0, 20, 60, 40)));
            web.metrics(cells(T0 + 130_000, call(CallMetricKind.CALL_METRIC_KIND_SERVER, "GET", "/home", 200, 30, 0,
                    30 * MS, MS / 2, 2 * MS, 30)));
            web.metrics(cells(T0 + 130_000, call(CallMetricKind.CALL_METRIC_KIND_CLIENT, "GET", "api:8080", 200, 30, 3,
                    30 * MS, MS / 2, 2 * MS, 30)));
            web.metrics(cells(T0 - 3_600_000, call(CallMetricKind.CALL_METRIC_KIND_SERVER, "GET", "/checkout", 200,
                    1000, 1000, 1000 * MS, MS, MS, 1000)));
            for (long[] sample : new long[][] {{5_000, 100}, {50_000, 200}, {65_000, 300}, {-3_600_000, 999}}) {
                web.metrics(MetricBatch.newBuilder().setTimestampMs(T0 + sample[0])
                        .addJvm(gauge("jvm.heap.used", sample[1])).addJvm(gauge("jvm.threads.live", sample[1] / 10))
                        .build());
            }
            svc.metrics(MetricBatch.newBuilder().setTimestampMs(T0 + 1_000).addJvm(gauge("jvm.heap.used", 42)).build());
            api.awaitMetric("argus_collector_spans_stored_total", 10);
            api.awaitMetric("argus_collector_frames_received_total{type=\"metrics\"}", 10);
            assertThat(collector.flush(Duration.ofSeconds(10))).isTrue();
        }
    }

    static MetricBatch cells(long tsMs, io.argus.protocol.CallMetric cell) {
        return MetricBatch.newBuilder().setTimestampMs(tsMs).setIntervalMs(10_000)
                .addAllBucketBoundsNanos(List.of(BOUNDS[0], BOUNDS[1], BOUNDS[2], BOUNDS[3])).addCalls(cell).build();
    }

    @AfterAll
    static void stop() {
        if (collector != null) {
            collector.close();
        }
    }

    // ------------------------------------------------------------------ trace search

    @Test
    void searchByTimeRangeAndSort() {
        assertThat(ids("/api/traces?" + RANGE)).containsExactly(C, B, A);
        assertThat(ids("/api/traces?sort=time")).containsExactly(C, B, A, D);
        assertThat(ids("/api/traces?" + RANGE + "&sort=duration")).containsExactly(B, A, C);
        assertThat(ids("/api/traces?sort=duration&limit=2")).containsExactly(D, B);
        assertThat(ids("/api/traces?" + RANGE + "&limit=1")).containsExactly(C);
        assertThat(ids("/api/traces?range=24h")).containsExactly(C, B, A, D);
        assertThat(ids("/api/traces?range=15m&to=" + (T0 + 100_000))).containsExactly(B, A);
        assertThat(ids("/api/traces?range=1m&to=" + T0)).isEmpty();

        JsonNode b = api.json("/api/traces?" + RANGE + "&status=error").get(0);
        assertThat(fieldNames(b)).containsExactly("traceId", "rootName", "service", "startEpochMs", "durationMs",
                "spanCount", "errorCount");
        assertThat(b.get("traceId").asText()).isEqualTo(B);
        assertThat(b.get("rootName").asText()).isEqualTo("GET /checkout");
        assertThat(b.get("service").asText()).isEqualTo("web");
        assertThat(b.get("startEpochMs").asLong()).isEqualTo(T0 + 70_000);
        assertThat(b.get("durationMs").asDouble()).isEqualTo(200.0);
        assertThat(b.get("spanCount").asLong()).isEqualTo(3);
        assertThat(b.get("errorCount").asLong()).isEqualTo(3);
    }

    @Test
    void searchFilters() {
        assertThat(ids("/api/traces?" + RANGE + "&status=error")).containsExactly(B);
        assertThat(ids("/api/traces?" + RANGE + "&status=ok")).containsExactly(C, A);
        assertThat(ids("/api/traces?" + RANGE + "&route=/checkout")).containsExactly(B, A);
        assertThat(ids("/api/traces?" + RANGE + "&route=/home")).containsExactly(C); // from the root's name
        assertThat(ids("/api/traces?route=" + enc("GET /home"))).containsExactly(C);
        assertThat(ids("/api/traces?" + RANGE + "&route=/api/items")).isEmpty(); // not a root
        assertThat(ids("/api/traces?" + RANGE + "&service=web&minDurationMs=20&maxDurationMs=100"))
                .containsExactly(A);
        assertThat(ids("/api/traces?" + RANGE + "&maxDurationMs=10")).containsExactly(C);
        assertThat(ids("/api/traces?" + RANGE + "&service=api")).isEmpty();
        assertThat(ids("/api/traces?" + RANGE + "&tag=customer%3Dvip")).containsExactly(B);
        assertThat(ids("/api/traces?" + RANGE + "&tag=error%3Dboom")).containsExactly(B); // a span of api's
        assertThat(ids("/api/traces?" + RANGE + "&tag=http.status_code%3D502&tag=customer%3Dvip"))
                .containsExactly(B);
        assertThat(ids("/api/traces?" + RANGE + "&tag=http.status_code%3D200&tag=customer%3Dvip")).isEmpty();
        assertThat(ids("/api/traces?" + RANGE + "&tag=db.system%3Dpostgresql")).containsExactly(A);
        assertThat(ids("/api/traces?tag=http.route%3D/checkout&sort=duration")).containsExactly(D, B, A);
        assertThat(ids("/api/traces?" + RANGE + "&tag=" + enc("http.url=https://pay.example.com:443/charge?x=1")))
                .containsExactly(C);
    }

    // ------------------------------------------------------------------ service map

    @Test
    void serviceMap() {
        JsonNode map = api.json("/api/servicemap?" + RANGE);
        assertThat(fieldNames(map)).containsExactly("range", "nodes", "edges");
        assertThat(map.get("range").get("fromMs").asLong()).isEqualTo(T0);
        List<String> nodes = new ArrayList<>();
        map.get("nodes").forEach(n -> nodes.add(n.get("id").asText() + "|" + n.get("name").asText() + "|"
                + n.get("type").asText()));
        assertThat(nodes).containsExactly("api|api|service", "web|web|service",
                "db:postgresql/shop|postgresql/shop|database", "ext:pay.example.com:443|pay.example.com:443|external");
        JsonNode edges = map.get("edges");
        assertThat(edges).hasSize(3);
        JsonNode db = edges.get(0);
        assertThat(fieldNames(db)).containsExactly("source", "target", "calls", "errors", "ratePerSec", "errorRate",
                "p95Ms");
        assertThat(db.get("source").asText()).isEqualTo("api");
        assertThat(db.get("target").asText()).isEqualTo("db:postgresql/shop");
        assertThat(db.get("calls").asLong()).isEqualTo(1);
        assertThat(db.get("p95Ms").asDouble()).isEqualTo(5.0);
        JsonNode webApi = edges.get(1);
        assertThat(webApi.get("source").asText()).isEqualTo("web");
        assertThat(webApi.get("target").asText()).isEqualTo("api");
        assertThat(webApi.get("calls").asLong()).isEqualTo(2);
        assertThat(webApi.get("errors").asLong()).isEqualTo(1);
        assertThat(webApi.get("errorRate").asDouble()).isEqualTo(0.5);
        assertThat(webApi.get("ratePerSec").asDouble()).isEqualTo(0.007); // 2 calls in 300 s
        assertThat(webApi.get("p95Ms").asDouble()).isEqualTo(172.5); // between 30 and 180 ms
        JsonNode ext = edges.get(2);
        assertThat(ext.get("target").asText()).isEqualTo("ext:pay.example.com:443");

        // the hour before: only trace D's web, no edges
        JsonNode before = api.json("/api/servicemap?from=" + (T0 - 3_700_000) + "&to=" + (T0 - 3_500_000));
        assertThat(before.get("nodes")).hasSize(1);
        assertThat(before.get("edges")).isEmpty();
        // default range: the last hour, which holds everything but D
        assertThat(api.json("/api/servicemap").get("edges")).hasSize(3);
    }

    @Test
    void tracesOfAnEdge() {
        assertThat(ids("/api/servicemap/traces?source=web&target=api&" + RANGE)).containsExactly(B, A);
        assertThat(ids("/api/servicemap/traces?source=web&target=api&" + RANGE + "&sort=duration&limit=1"))
                .containsExactly(B);
        assertThat(ids("/api/servicemap/traces?source=web&target=api&" + RANGE + "&status=ok")).containsExactly(A);
        assertThat(ids("/api/servicemap/traces?source=api&target=" + enc("db:postgresql/shop") + "&" + RANGE))
                .containsExactly(A);
        assertThat(ids("/api/servicemap/traces?source=web&target=" + enc("ext:pay.example.com:443")))
                .containsExactly(C);
        assertThat(ids("/api/servicemap/traces?source=api&target=web&" + RANGE)).isEmpty();
    }

    // ------------------------------------------------------------------ series

    @Test
    void redSeriesOfAService() {
        JsonNode red = api.json("/api/series/red?service=web&" + RANGE + "&step=1m");
        assertThat(fieldNames(red)).containsExactly("service", "kind", "method", "route", "stepMs", "points");
        assertThat(red.get("kind").asText()).isEqualTo("server");
        assertThat(red.get("stepMs").asLong()).isEqualTo(60_000);
        JsonNode points = red.get("points");
        assertThat(points).hasSize(5);
        JsonNode p0 = points.get(0);
        assertThat(fieldNames(p0)).containsExactly("tsMs", "requests", "errors", "requestsPerSec", "errorRate",
                "p50Ms", "p95Ms", "p99Ms");
        assertThat(p0.get("tsMs").asLong()).isEqualTo(T0);
        assertThat(p0.get("requests").asLong()).isEqualTo(60);
        assertThat(p0.get("requestsPerSec").asDouble()).isEqualTo(1.0);
        assertThat(p0.get("errorRate").asDouble()).isZero();
        // buckets [10, 50]: rank 30 in (1 ms, 2 ms] -> 1.4 ms; rank 57 -> 1.94, clamped to the max, 1.9
        assertThat(p0.get("p50Ms").asDouble()).isEqualTo(1.4);
        assertThat(p0.get("p95Ms").asDouble()).isEqualTo(1.9);
        assertThat(p0.get("p99Ms").asDouble()).isEqualTo(1.9);
        JsonNode p1 = points.get(1);
        assertThat(p1.get("tsMs").asLong()).isEqualTo(T0 + 60_000);
        assertThat(p1.get("requests").asLong()).isEqualTo(120);
        assertThat(p1.get("errors").asLong()).isEqualTo(6);
        assertThat(p1.get("requestsPerSec").asDouble()).isEqualTo(2.0);
        assertThat(p1.get("errorRate").asDouble()).isEqualTo(0.05);
        // buckets [0, 20, 60, 40]: rank 60 in (2 ms, 5 ms] -> 4 ms; rank 114 in (5, 10] -> 9.25, clamped to 9
        assertThat(p1.get("p50Ms").asDouble()).isEqualTo(4.0);
        assertThat(p1.get("p95Ms").asDouble()).isEqualTo(9.0);
        assertThat(points.get(2).get("requests").asLong()).isEqualTo(30); // /home
        assertThat(points.get(2).get("requestsPerSec").asDouble()).isEqualTo(0.5);
        assertThat(points.get(3).get("requests").asLong()).isZero();
        assertThat(points.get(3).get("p95Ms").isNull()).isTrue();

        // 180 traced? no: 3 spans were stored, the series counts the 210 calls the agent measured
        JsonNode route = api.json("/api/series/red?service=web&route=/checkout&method=GET&" + RANGE + "&step=1m");
        assertThat(route.get("route").asText()).isEqualTo("/checkout");
        assertThat(route.get("points").get(1).get("requests").asLong()).isEqualTo(120);
        assertThat(route.get("points").get(2).get("requests").asLong()).isZero();
        JsonNode client = api.json("/api/series/red?service=web&kind=client&" + RANGE + "&step=1m");
        assertThat(client.get("points").get(2).get("errorRate").asDouble()).isEqualTo(0.1);

        // step chosen from the range: 15 min -> 10 s (90 points, 91 when now is not on a step), 24 h -> 15 min
        JsonNode quarter = api.json("/api/series/red?service=web&range=15m");
        assertThat(quarter.get("stepMs").asLong()).isEqualTo(10_000);
        assertThat(quarter.get("points").size()).isBetween(90, 91);
        assertThat(api.json("/api/series/red?service=web&range=24h").get("stepMs").asLong()).isEqualTo(900_000);
    }

    @Test
    void jvmSeriesPerInstance() {
        JsonNode jvm = api.json("/api/series/jvm?service=web&" + RANGE + "&step=1m");
        assertThat(fieldNames(jvm)).containsExactly("service", "stepMs", "instances");
        assertThat(jvm.get("instances")).hasSize(1);
        JsonNode inst = jvm.get("instances").get(0);
        assertThat(inst.get("instance").asText()).isEqualTo("web-1");
        // the last sample of each step
        assertThat(inst.get("series").get("jvm.heap.used").toString())
                .isEqualTo("[[" + T0 + ",200.0],[" + (T0 + 60_000) + ",300.0]]");
        assertThat(inst.get("series").get("jvm.threads.live").get(1).get(1).asDouble()).isEqualTo(30.0);
        JsonNode api1 = api.json("/api/series/jvm?service=api&" + RANGE).get("instances").get(0);
        assertThat(api1.get("series").get("jvm.heap.used").get(0).get(1).asDouble()).isEqualTo(42.0);
    }

    @Test
    void callMetricsInARange() {
        JsonNode all = api.json("/api/metrics/http?service=web&kind=server");
        assertThat(all.get(0).get("count").asLong()).isEqualTo(1180); // every stored cell
        JsonNode inRange = api.json("/api/metrics/http?service=web&kind=server&" + RANGE);
        assertThat(inRange).hasSize(2);
        assertThat(inRange.get(0).get("target").asText()).isEqualTo("/checkout");
        assertThat(inRange.get(0).get("count").asLong()).isEqualTo(180);
        assertThat(inRange.get(0).get("errors").asLong()).isEqualTo(6);
        assertThat(inRange.get(1).get("target").asText()).isEqualTo("/home");
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void badInputIsA400WithAMessage() {
        String[][] cases = {
            {"/api/traces?range=abc", "range"},
            {"/api/traces?range=0m", "range"},
            {"/api/traces?range=15x", "range"},
            {"/api/traces?from=yesterday", "from"},
            {"/api/traces?from=2000&to=1000", "before"},
            {"/api/traces?from=9223372036854775807", "from"},
            {"/api/servicemap?to=9223372036854775807", "to"},
            {"/api/traces?range=2h&to=1000", "1970"},
            {"/api/traces?range=1h&from=1000", "either"},
            {"/api/traces?range=99999d", "longer"},
            {"/api/traces?sort=size", "sort"},
            {"/api/traces?status=maybe", "status"},
            {"/api/traces?tag=novalue", "tag"},
            {"/api/traces?tag=%3Dx", "tag"},
            {"/api/traces?tag=%20%3Dx", "tag"},
            {"/api/traces?minDurationMs=10&maxDurationMs=5", "maxDurationMs"},
            {"/api/traces?maxDurationMs=-1", "maxDurationMs"},
            {"/api/series/red?range=1h", "service"},
            {"/api/series/red?service=nobody&range=1h", "unknown service"},
            {"/api/series/red?service=web&kind=bogus", "kind"},
            {"/api/series/red?service=web&range=24h&step=1s", "step"},
            {"/api/series/red?service=web&step=fast", "step"},
            {"/api/series/jvm?service=nobody", "unknown service"},
            {"/api/series/jvm", "service"},
            {"/api/servicemap?range=-5m", "range"},
            {"/api/servicemap/traces?source=web", "target"},
            {"/api/servicemap/traces?source=web&target=api&sort=x", "sort"},
            {"/api/metrics/http?range=1y", "range"},
        };
        for (String[] c : cases) {
            Api.Response r = api.get(c[0]);
            assertThat(r.status()).as(c[0]).isEqualTo(400);
            assertThat(r.contentType()).as(c[0]).startsWith("application/json");
            assertThat(r.json().get("error").asText()).as(c[0]).contains(c[1]);
        }
        // the collector is still there
        assertThat(api.json("/api/servicemap?" + RANGE).get("edges")).hasSize(3);
    }

    @Test
    void uiFiles() {
        Api.Response page = api.get("/");
        assertThat(page.body()).contains("ui/uplot.min.js", "ui/argus.js");
        Api.Response js = api.get("/ui/uplot.min.js");
        assertThat(js.status()).isEqualTo(200);
        assertThat(js.contentType()).startsWith("text/javascript");
        assertThat(js.body()).contains("uPlot");
        assertThat(api.get("/ui/uplot.LICENSE").body()).contains("MIT License");
        assertThat(api.get("/ui/argus.css").contentType()).startsWith("text/css");
        assertThat(api.get("/ui/../pom.xml").status()).isEqualTo(404);
        assertThat(api.get("/ui/nothing.js").status()).isEqualTo(404);
    }

    private static List<String> ids(String path) {
        List<String> out = new ArrayList<>();
        api.json(path).forEach(t -> out.add(t.get("traceId").asText()));
        return out;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
