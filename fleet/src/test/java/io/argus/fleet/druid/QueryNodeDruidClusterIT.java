package io.argus.fleet.druid;

import io.argus.collector.storage.AgentEvent;
import io.argus.cluster.druid.DruidCluster;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.storage.Histograms;
import io.argus.collector.storage.druid.DruidDatasources;
import io.argus.collector.storage.druid.DruidSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Druid cluster (local-cluster's {@link DruidCluster}) holding a fleet's telemetry in the contract's records, ingested by
 * Druid's native batch ingestion from the same JSON the Kafka topics carry; a collector started with
 * {@code --query druid} answers the API from it. Runs under {@code -Pdruid} (a few minutes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueryNodeDruidClusterIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TRACES = 300;
    private static final Duration INGEST_TIMEOUT = Duration.ofMinutes(10);

    @TempDir
    static Path work;

    private DruidCluster druid;
    private SyntheticFleet fleet;
    private final DruidSpecs specs = new DruidSpecs(new DruidDatasources("argus-"));
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void startDruidAndIngest() throws Exception {
        druid = DruidCluster.start(DruidCluster.install(), work.resolve("druid"), DruidCluster.DEFAULT_WORKER_CAPACITY,
                System.out);
        // half an hour of traffic that ended a minute ago: inside every retention period
        long end = System.currentTimeMillis() - 60_000;
        fleet = new SyntheticFleet(TRACES, end - 30 * 60_000, 30 * 60_000, 7);
        RetentionRules.defaults().apply(druid.api(), specs.datasources());

        Map<String, List<String>> records = new LinkedHashMap<>();
        List<String> spans = new ArrayList<>();
        fleet.forEachTrace(t -> t.forEach(s -> spans.add(FleetRecords.text(FleetRecords.span(s)))));
        records.put(specs.datasources().spans(), spans);
        records.put(specs.datasources().calls(), FleetRecords.lines(fleet.cells, FleetRecords::cell));
        records.put(specs.datasources().jvm(), FleetRecords.lines(fleet.gauges, FleetRecords::gauge));
        records.put(specs.datasources().agents(), FleetRecords.lines(fleet.agentEvents, FleetRecords::agentEvent));
        Map<String, String> tasks = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : records.entrySet()) {
            tasks.put(e.getKey(), druid.api().submitTask(specs.inlineBatchTask(e.getKey(),
                    String.join("\n", e.getValue()))));
        }
        for (String task : tasks.values()) {
            druid.api().awaitTask(task, INGEST_TIMEOUT);
        }
        // queryable once the historical has loaded the published segments
        awaitCount(specs.datasources().spans(), "COUNT(*)", fleet.spanCount());
        awaitCount(specs.datasources().calls(), "SUM(\"count\")",
                fleet.cells.stream().mapToLong(SyntheticFleet.Cell::count).sum());
        awaitCount(specs.datasources().jvm(), "COUNT(*)", fleet.gauges.size());
        awaitCount(specs.datasources().agents(), "COUNT(*)", fleet.agentEvents.size());
    }

    private void awaitCount(String datasource, String aggregate, long expected) throws Exception {
        druid.api().awaitSql("SELECT " + aggregate + " AS n FROM \"" + datasource + "\"",
                rows -> rows.size() == 1 && rows.get(0).path("n").asLong() == expected, INGEST_TIMEOUT);
    }

    @AfterAll
    void stopDruid() {
        if (druid != null) {
            druid.close();
        }
    }

    private Collector queryNode(String prefix) {
        return Collector.start(CollectorConfig.builder().httpPort(0).ingestPort(0).dataDir(work.resolve("unused"))
                .druidQuery(new DruidSettings(URI.create(druid.routerUrl()), prefix, Duration.ofSeconds(60)))
                .build());
    }

    private JsonNode get(Collector c, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(c.httpUrl() + path.substring(1)))
                .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    @Test
    void traceByIdHasEverySpanOfTheTrace() throws Exception {
        try (Collector c = queryNode("argus-")) {
            assertThat(c.ingestPort()).isZero();
            for (int i : new int[] {0, TRACES / 2, TRACES - 1}) {
                List<SyntheticFleet.Span> expected = new ArrayList<>(fleet.trace(i));
                JsonNode trace = get(c, "/api/traces/" + expected.get(0).traceId());
                assertThat(trace.path("traceId").asText()).isEqualTo(expected.get(0).traceId());
                JsonNode spans = trace.path("spans");
                assertThat(spans).hasSize(4);
                expected.sort((a, b) -> Long.compare(a.startNs(), b.startNs()));
                for (int s = 0; s < 4; s++) {
                    SyntheticFleet.Span want = expected.get(s);
                    JsonNode got = spans.get(s);
                    assertThat(got.path("spanId").asText()).isEqualTo(want.spanId());
                    assertThat(got.path("parentSpanId").isNull() ? "" : got.path("parentSpanId").asText())
                            .isEqualTo(want.parentSpanId());
                    assertThat(got.path("service").asText()).isEqualTo(want.service());
                    assertThat(got.path("instance").asText()).isEqualTo(want.instance());
                    assertThat(got.path("kind").asText()).isEqualTo(want.kind());
                    assertThat(got.path("name").asText()).isEqualTo(want.name());
                    assertThat(got.path("startEpochNanos").asLong()).isEqualTo(want.startNs());
                    assertThat(got.path("durationNanos").asLong()).isEqualTo(want.durationNs());
                    assertThat(got.path("status").asText()).isEqualTo(want.status());
                    Map<String, String> tags = new LinkedHashMap<>();
                    got.path("tags").fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().asText()));
                    assertThat(tags).isEqualTo(want.tags());
                }
            }
            HttpResponse<String> missing = http.send(HttpRequest.newBuilder(URI.create(c.httpUrl()
                    + "api/traces/0000000000000000000000000000abcd")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(missing.statusCode()).isEqualTo(404);
        }
    }

    @Test
    void recentTracesNewestRootFirst() throws Exception {
        try (Collector c = queryNode("argus-")) {
            JsonNode traces = get(c, "/api/traces?limit=5");
            assertThat(traces).hasSize(5);
            for (int k = 0; k < 5; k++) {
                SyntheticFleet.Span root = fleet.trace(TRACES - 1 - k).get(0);
                JsonNode t = traces.get(k);
                assertThat(t.path("traceId").asText()).isEqualTo(root.traceId());
                assertThat(t.path("rootName").asText()).isEqualTo(root.name());
                assertThat(t.path("service").asText()).isEqualTo("orders");
                assertThat(t.path("spanCount").asLong()).isEqualTo(4);
                assertThat(t.path("durationMs").asDouble()).isEqualTo(root.durationNs() / 1e6);
            }
            JsonNode stock = get(c, "/api/traces?service=stock");
            assertThat(stock).isEmpty(); // stock never holds a root
        }
    }

    @Test
    void servicesAndAgentsFromTheAgentSessionEvents() throws Exception {
        try (Collector c = queryNode("argus-")) {
            JsonNode services = get(c, "/api/services");
            assertThat(services).hasSize(2);
            assertThat(services.get(0).path("service").asText()).isEqualTo("orders");
            assertThat(services.get(0).path("instances").toString())
                    .isEqualTo("[\"orders-1@host\",\"orders-2@host\"]");
            assertThat(services.get(1).path("service").asText()).isEqualTo("stock");
            assertThat(services.get(1).path("lastSeenMs").asLong()).isEqualTo(fleet.startMs + fleet.rangeMs);

            JsonNode agents = get(c, "/api/agents");
            assertThat(agents).hasSize(3);
            JsonNode o1 = agents.get(0);
            assertThat(o1.path("instance").asText()).isEqualTo("orders-1@host");
            assertThat(o1.path("pid").asLong()).isEqualTo(1001);
            assertThat(o1.path("connectedAtMs").asLong()).isEqualTo(fleet.startMs);
            assertThat(o1.path("lastHeartbeatMs").asLong()).isEqualTo(fleet.startMs + fleet.rangeMs);
            assertThat(o1.path("sentSpans").asLong()).isEqualTo(10010);
            // the last heartbeat is older than the connected window by the time the tests run
            assertThat(o1.path("connected").asBoolean()).isEqualTo(
                    System.currentTimeMillis() - (fleet.startMs + fleet.rangeMs) <= 120_000);
            // orders-1 serves the even traces: two spans each
            assertThat(o1.path("spansReceived").asLong()).isEqualTo(2L * ((TRACES + 1) / 2));
            assertThat(agents.get(2).path("spansReceived").asLong()).isEqualTo(2L * TRACES);
        }
    }

    /**
     * An agent sent a frame again after a lost acknowledgement, and both ingest collectors published it: the spans of
     * a failed trace are in Druid twice. Trace by id, the trace list and trace search show and count each once.
     */
    @Test
    @Order(Integer.MAX_VALUE - 1) // stores spans twice, which the other tests do not expect
    void aSpanStoredTwiceIsShownAndCountedOnce() throws Exception {
        long from = fleet.startMs + 10 * 60_000;
        long to = fleet.startMs + 20 * 60_000;
        List<SyntheticFleet.Span> trace = tracesStartingIn(from, to).stream().filter(t -> errorSpans(t) > 0)
                .findFirst().orElseThrow();
        String again = trace.stream().map(s -> FleetRecords.text(FleetRecords.span(s)))
                .collect(Collectors.joining("\n"));
        druid.api().awaitTask(druid.api().submitTask(specs.inlineBatchTask(specs.datasources().spans(), again)),
                INGEST_TIMEOUT);
        awaitCount(specs.datasources().spans(), "COUNT(*)", fleet.spanCount() + trace.size());
        String id = trace.get(0).traceId();
        try (Collector c = queryNode("argus-")) {
            JsonNode spans = get(c, "/api/traces/" + id).path("spans");
            assertThat(spans).hasSize(trace.size());
            List<String> spanIds = new ArrayList<>();
            spans.forEach(s -> spanIds.add(s.path("spanId").asText()));
            assertThat(spanIds).containsExactlyInAnyOrderElementsOf(
                    trace.stream().map(SyntheticFleet.Span::spanId).toList());

            List<JsonNode> found = new ArrayList<>();
            get(c, "/api/traces?from=" + from + "&to=" + to + "&limit=1000&status=error").forEach(h -> {
                if (h.path("traceId").asText().equals(id)) {
                    found.add(h);
                }
            });
            assertThat(found).hasSize(1);
            assertThat(found.get(0).path("spanCount").asLong()).isEqualTo(trace.size());
            assertThat(found.get(0).path("errorCount").asLong()).isEqualTo(errorSpans(trace));

            List<JsonNode> listed = new ArrayList<>();
            get(c, "/api/traces?limit=" + TRACES).forEach(t -> {
                if (t.path("traceId").asText().equals(id)) {
                    listed.add(t);
                }
            });
            assertThat(listed).hasSize(1);
            assertThat(listed.get(0).path("spanCount").asLong()).isEqualTo(trace.size());
        }
    }

    @Test
    @Order(Integer.MAX_VALUE) // adds agents the other tests do not expect
    void anAgentIsConnectedUntilItDisconnects() throws Exception {
        // stamped a minute ahead, so that the ingestion task's run time cannot age them past the connected window
        long ts = System.currentTimeMillis() + 60_000;
        String events = String.join("\n", FleetRecords.lines(List.of(
                new SyntheticFleet.AgentEvent(ts, "heartbeat", "stock", "stock-2@host", 2001, ts - 90_000, 77),
                new SyntheticFleet.AgentEvent(ts, "disconnected", "stock", "stock-3@host", 2002, ts - 90_000, 88)),
                FleetRecords::agentEvent));
        druid.api().awaitTask(druid.api().submitTask(specs.inlineBatchTask(specs.datasources().agents(), events)),
                INGEST_TIMEOUT);
        awaitCount(specs.datasources().agents(), "COUNT(*)", fleet.agentEvents.size() + 2);
        try (Collector c = queryNode("argus-")) {
            Map<String, JsonNode> agents = new LinkedHashMap<>();
            get(c, "/api/agents").forEach(a -> agents.put(a.path("instance").asText(), a));
            assertThat(agents.get("stock-2@host").path("connected").asBoolean()).isTrue();
            assertThat(agents.get("stock-2@host").path("sentSpans").asLong()).isEqualTo(77);
            assertThat(agents.get("stock-3@host").path("connected").asBoolean()).isFalse();
            assertThat(agents.get("stock-3@host").path("lastSeenMs").asLong()).isEqualTo(ts);
            JsonNode stock = get(c, "/api/services").get(1);
            assertThat(stock.path("instances").toString())
                    .isEqualTo("[\"stock-1@host\",\"stock-2@host\",\"stock-3@host\"]");
        }
    }

    @Test
    void httpMetricsMatchTheIngestedCellsWithPercentiles() throws Exception {
        try (Collector c = queryNode("argus-")) {
            JsonNode server = get(c, "/api/metrics/http?kind=server");
            Map<String, JsonNode> byKey = new LinkedHashMap<>();
            server.forEach(m -> byKey.put(m.path("service").asText() + "|" + m.path("status").asInt(), m));
            assertThat(byKey.keySet()).containsExactlyInAnyOrderElementsOf(fleet.serverDurations.keySet());
            for (Map.Entry<String, List<Long>> e : fleet.serverDurations.entrySet()) {
                JsonNode m = byKey.get(e.getKey());
                List<Long> d = new ArrayList<>(e.getValue());
                Collections.sort(d);
                int status = Integer.parseInt(e.getKey().split("\\|")[1]);
                assertThat(m.path("kind").asText()).isEqualTo("server");
                assertThat(m.path("method").asText()).isEqualTo("GET");
                assertThat(m.path("count").asLong()).isEqualTo(d.size());
                assertThat(m.path("errors").asLong()).isEqualTo(status >= 500 ? d.size() : 0);
                assertThat(m.path("minMs").asDouble()).isEqualTo(Math.round(d.get(0) / 1e3) / 1e3);
                assertThat(m.path("maxMs").asDouble()).isEqualTo(Math.round(d.get(d.size() - 1) / 1e3) / 1e3);
                double avg = d.stream().mapToLong(Long::longValue).average().orElseThrow();
                assertThat(m.path("avgMs").asDouble()).isCloseTo(avg / 1e6, within(0.001));
                // the percentile of the merged histogram of every ingested cell...
                long[] merged = new long[DruidDatasources.BUCKETS];
                d.forEach(v -> merged[SyntheticFleet.bucketOf(v)]++);
                double p95 = Histograms.percentile(0.95, DruidDatasources.BUCKET_BOUNDS_NS, merged, d.get(0),
                        d.get(d.size() - 1));
                assertThat(m.path("p95Ms").asDouble()).isCloseTo(p95 / 1e6, within(0.001));
                // ...which is within a bucket (25%) of the exact one
                double exact95 = d.get((int) Math.ceil(0.95 * d.size()) - 1) / 1e6;
                assertThat(m.path("p95Ms").asDouble()).isBetween(exact95 / 1.25, exact95 * 1.25);
                double exact99 = d.get((int) Math.ceil(0.99 * d.size()) - 1) / 1e6;
                assertThat(m.path("p99Ms").asDouble()).isBetween(exact99 / 1.25, exact99 * 1.25);
            }
            JsonNode client = get(c, "/api/metrics/http?kind=client&service=orders");
            assertThat(client).isNotEmpty();
            assertThat(client.get(0).path("target").asText()).isEqualTo(SyntheticFleet.STOCK_PEER);
            long clientCalls = 0;
            for (JsonNode m : client) {
                clientCalls += m.path("count").asLong();
            }
            assertThat(clientCalls).isEqualTo(TRACES);
            assertThat(get(c, "/api/metrics/http?service=nobody")).isEmpty();
        }
    }

    @Test
    void jvmGaugesLatestAndSeries() throws Exception {
        try (Collector c = queryNode("argus-")) {
            JsonNode jvm = get(c, "/api/metrics/jvm?service=orders");
            assertThat(jvm.path("service").asText()).isEqualTo("orders");
            assertThat(jvm.path("instances")).hasSize(2);
            JsonNode first = jvm.path("instances").get(0);
            assertThat(first.path("instance").asText()).isEqualTo("orders-1@host");
            List<SyntheticFleet.Gauge> heap = fleet.gauges.stream()
                    .filter(g -> g.instance().equals("orders-1@host") && g.name().equals("heap.used"))
                    .collect(Collectors.toList());
            SyntheticFleet.Gauge last = heap.get(heap.size() - 1);
            assertThat(first.path("latest").path("heap.used").asDouble()).isEqualTo(last.value());
            JsonNode series = first.path("series").path("heap.used");
            assertThat(series).hasSize(60);
            assertThat(series.get(59).get(0).asLong()).isEqualTo(last.tsMs());
            assertThat(series.get(0).get(0).asLong()).isEqualTo(heap.get(heap.size() - 60).tsMs());
        }
    }

    /** The fleet's traces whose root starts in [fromMs, toMs), newest root first. */
    private List<List<SyntheticFleet.Span>> tracesStartingIn(long fromMs, long toMs) {
        List<List<SyntheticFleet.Span>> out = new ArrayList<>();
        fleet.forEachTrace(t -> {
            long ms = Math.floorDiv(t.get(0).startNs(), 1_000_000L);
            if (ms >= fromMs && ms < toMs) {
                out.add(t);
            }
        });
        out.sort((a, b) -> Long.compare(b.get(0).startNs(), a.get(0).startNs()));
        return out;
    }

    private static long errorSpans(List<SyntheticFleet.Span> trace) {
        return trace.stream().filter(s -> s.status().equals("ERROR")).count();
    }

    private static String query(String text) {
        return java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void traceSearchJudgesTracesByTheirRootAndAnySpansTagsAndErrors() throws Exception {
        long from = fleet.startMs + 10 * 60_000;
        long to = fleet.startMs + 20 * 60_000;
        List<List<SyntheticFleet.Span>> inRange = tracesStartingIn(from, to);
        assertThat(inRange).hasSizeGreaterThan(50);
        String window = "from=" + from + "&to=" + to;
        try (Collector c = queryNode("argus-")) {
            JsonNode all = get(c, "/api/traces?" + window + "&limit=1000");
            assertThat(all).hasSize(inRange.size());
            for (int k = 0; k < inRange.size(); k++) {
                SyntheticFleet.Span root = inRange.get(k).get(0);
                JsonNode hit = all.get(k);
                assertThat(hit.path("traceId").asText()).isEqualTo(root.traceId());
                assertThat(hit.path("rootName").asText()).isEqualTo(root.name());
                assertThat(hit.path("service").asText()).isEqualTo("orders");
                assertThat(hit.path("startEpochMs").asLong()).isEqualTo(Math.floorDiv(root.startNs(), 1_000_000L));
                assertThat(hit.path("durationMs").asDouble()).isEqualTo(root.durationNs() / 1e6);
                assertThat(hit.path("spanCount").asLong()).isEqualTo(4);
                assertThat(hit.path("errorCount").asLong()).isEqualTo(errorSpans(inRange.get(k)));
            }

            List<String> failed = inRange.stream().filter(t -> errorSpans(t) > 0).map(t -> t.get(0).traceId())
                    .toList();
            assertThat(failed).isNotEmpty();
            List<String> byStatus = new ArrayList<>();
            get(c, "/api/traces?" + window + "&limit=1000&status=error").forEach(h -> byStatus.add(h.path("traceId")
                    .asText()));
            assertThat(byStatus).containsExactlyElementsOf(failed);
            assertThat(get(c, "/api/traces?" + window + "&limit=1000&status=ok"))
                    .hasSize(inRange.size() - failed.size());
            // a tag of a span other than the root (the client span's peer), and one every failed span carries
            List<String> byTags = new ArrayList<>();
            get(c, "/api/traces?" + window + "&limit=1000&tag=" + query("http.status_code=500") + "&tag="
                    + query("peer=" + SyntheticFleet.STOCK_PEER)).forEach(h -> byTags.add(h.path("traceId").asText()));
            assertThat(byTags).containsExactlyElementsOf(failed);
            assertThat(get(c, "/api/traces?" + window + "&tag=" + query("peer=nowhere:1"))).isEmpty();

            // the root's route, by tag or by the end of its name; stock never holds a root
            assertThat(get(c, "/api/traces?" + window + "&limit=1000&route=" + query(SyntheticFleet.ORDERS_ROUTE)))
                    .hasSize(inRange.size());
            assertThat(get(c, "/api/traces?" + window + "&route=" + query(SyntheticFleet.STOCK_ROUTE))).isEmpty();
            assertThat(get(c, "/api/traces?" + window + "&service=stock")).isEmpty();

            List<SyntheticFleet.Span> longest = new ArrayList<>(inRange.stream().map(t -> t.get(0)).toList());
            longest.sort((a, b) -> Long.compare(b.durationNs(), a.durationNs()));
            JsonNode slow = get(c, "/api/traces?" + window + "&sort=duration&limit=3");
            assertThat(slow).hasSize(3);
            for (int k = 0; k < 3; k++) {
                assertThat(slow.get(k).path("traceId").asText()).isEqualTo(longest.get(k).traceId());
            }
            long thresholdMs = longest.get(9).durationNs() / 1_000_000;
            long over = longest.stream().filter(r -> r.durationNs() >= thresholdMs * 1_000_000).count();
            JsonNode overThreshold = get(c, "/api/traces?" + window + "&limit=1000&minDurationMs=" + thresholdMs);
            assertThat(overThreshold).hasSize((int) over);
            overThreshold.forEach(h -> assertThat(h.path("durationMs").asDouble()).isGreaterThanOrEqualTo(
                    thresholdMs));
        }
    }

    @Test
    void serviceMapJoinsClientSpansToTheServerSpansTheyCalled() throws Exception {
        long from = fleet.startMs;
        long to = fleet.startMs + fleet.rangeMs + 60_000;
        try (Collector c = queryNode("argus-")) {
            JsonNode map = get(c, "/api/servicemap?from=" + from + "&to=" + to);
            assertThat(map.path("nodes").toString()).isEqualTo("[{\"id\":\"orders\",\"name\":\"orders\","
                    + "\"type\":\"service\"},{\"id\":\"stock\",\"name\":\"stock\",\"type\":\"service\"},"
                    + "{\"id\":\"db:mongodb/10.0.0.6:27017/catalog\",\"name\":\"mongodb/10.0.0.6:27017/catalog\","
                    + "\"type\":\"database\"},{\"id\":\"db:redis/10.0.0.5:6379\",\"name\":\"redis/10.0.0.5:6379\","
                    + "\"type\":\"database\"}]");
            JsonNode edges = map.path("edges");
            assertThat(edges).hasSize(3); // and stock's two databases, from their metrics
            JsonNode edge = edges.get(0);
            assertThat(edge.path("source").asText()).isEqualTo("orders");
            assertThat(edge.path("target").asText()).isEqualTo("stock");
            assertThat(edge.path("calls").asLong()).isEqualTo(TRACES);
            List<Long> clients = new ArrayList<>();
            long[] errors = new long[1];
            fleet.forEachTrace(t -> {
                clients.add(t.get(1).durationNs());
                errors[0] += t.get(1).status().equals("ERROR") ? 1 : 0;
            });
            Collections.sort(clients);
            assertThat(edge.path("errors").asLong()).isEqualTo(errors[0]);
            assertThat(edge.path("ratePerSec").asDouble())
                    .isEqualTo(Math.round(TRACES / ((to - from) / 1000.0) * 1000) / 1000.0);
            assertThat(edge.path("errorRate").asDouble()).isEqualTo(Math.round(10_000.0 * errors[0] / TRACES) / 1e4);
            // a quantile sketch: within a few ranks of the exact 95th percentile
            assertThat(edge.path("p95Ms").asDouble()).isBetween(clients.get(TRACES * 90 / 100) / 1e6,
                    clients.get(TRACES * 99 / 100) / 1e6);

            // the traces along the edge, newest first
            JsonNode along = get(c, "/api/servicemap/traces?source=orders&target=stock&from=" + from + "&to=" + to
                    + "&limit=5");
            assertThat(along).hasSize(5);
            for (int k = 0; k < 5; k++) {
                assertThat(along.get(k).path("traceId").asText()).isEqualTo(fleet.trace(TRACES - 1 - k).get(0)
                        .traceId());
            }
            assertThat(get(c, "/api/servicemap/traces?source=stock&target=orders&from=" + from + "&to=" + to))
                    .isEmpty();
            // an hour before the fleet: nothing
            JsonNode before = get(c, "/api/servicemap?from=" + (from - 7_200_000) + "&to=" + (from - 3_600_000));
            assertThat(before.path("nodes")).isEmpty();
            assertThat(before.path("edges")).isEmpty();
        }
    }

    @Test
    void databaseAndJobMetricsAndDatabaseNodesFromTheCells() throws Exception {
        long from = fleet.startMs;
        long to = fleet.startMs + fleet.rangeMs + 60_000;
        try (Collector c = queryNode("argus-")) {
            Map<String, JsonNode> db = new LinkedHashMap<>();
            get(c, "/api/metrics/http?kind=db&service=stock").forEach(m -> db.put(m.path("target").asText(), m));
            assertThat(db.keySet()).containsExactlyInAnyOrder(SyntheticFleet.REDIS, SyntheticFleet.MONGO);
            assertThat(db.get(SyntheticFleet.REDIS).path("method").asText()).isEqualTo("GET");
            assertThat(db.get(SyntheticFleet.REDIS).path("count").asLong()).isEqualTo(40);
            assertThat(db.get(SyntheticFleet.REDIS).path("errors").asLong()).isEqualTo(1);
            assertThat(db.get(SyntheticFleet.MONGO).path("count").asLong()).isEqualTo(12);
            JsonNode jobs = get(c, "/api/metrics/http?kind=job");
            assertThat(jobs).hasSize(1);
            assertThat(jobs.get(0).path("service").asText()).isEqualTo("orders");
            assertThat(jobs.get(0).path("method").asText()).isEqualTo("quartz");
            assertThat(jobs.get(0).path("target").asText()).isEqualTo("reports.nightly");
            assertThat(jobs.get(0).path("count").asLong()).isEqualTo(3);
            assertThat(jobs.get(0).path("errors").asLong()).isEqualTo(1);
            Map<String, JsonNode> edges = new LinkedHashMap<>();
            get(c, "/api/servicemap?from=" + from + "&to=" + to).path("edges")
                    .forEach(e -> edges.put(e.path("source").asText() + ">" + e.path("target").asText(), e));
            assertThat(edges.get("stock>db:redis/10.0.0.5:6379").path("calls").asLong()).isEqualTo(40);
            assertThat(edges.get("stock>db:redis/10.0.0.5:6379").path("errors").asLong()).isEqualTo(1);
            assertThat(edges.get("stock>db:mongodb/10.0.0.6:27017/catalog").path("calls").asLong()).isEqualTo(12);
        }
    }

    @Test
    void redSeriesPerStepFromTheRolledUpCells() throws Exception {
        long step = 300_000;
        long from = Math.floorDiv(fleet.startMs, step) * step;
        long to = from + 45 * 60_000;
        Map<Long, List<SyntheticFleet.Cell>> byStep = new LinkedHashMap<>();
        fleet.cells.stream().filter(cell -> cell.service().equals("orders") && cell.kind().equals("server"))
                .forEach(cell -> byStep.computeIfAbsent(Math.floorDiv(cell.tsMs(), step) * step,
                        k -> new ArrayList<>()).add(cell));
        try (Collector c = queryNode("argus-")) {
            JsonNode red = get(c, "/api/series/red?service=orders&kind=server&from=" + from + "&to=" + to + "&step=5m");
            assertThat(red.path("stepMs").asLong()).isEqualTo(step);
            JsonNode points = red.path("points");
            assertThat(points).hasSize(9);
            long total = 0;
            for (int k = 0; k < points.size(); k++) {
                JsonNode p = points.get(k);
                long t = from + k * step;
                assertThat(p.path("tsMs").asLong()).isEqualTo(t);
                List<SyntheticFleet.Cell> cells = byStep.getOrDefault(t, List.of());
                long count = cells.stream().mapToLong(SyntheticFleet.Cell::count).sum();
                long errors = cells.stream().mapToLong(SyntheticFleet.Cell::errors).sum();
                assertThat(p.path("requests").asLong()).as("requests at %d", t).isEqualTo(count);
                assertThat(p.path("errors").asLong()).isEqualTo(errors);
                total += count;
                if (count == 0) {
                    assertThat(p.path("p95Ms").isNull()).isTrue();
                    continue;
                }
                assertThat(p.path("requestsPerSec").asDouble()).isEqualTo(Math.round(count / 300.0 * 1000) / 1000.0);
                long[] merged = new long[DruidDatasources.BUCKETS];
                cells.forEach(cell -> {
                    for (int i = 0; i < merged.length; i++) {
                        merged[i] += cell.buckets()[i];
                    }
                });
                double min = cells.stream().mapToLong(SyntheticFleet.Cell::minNs).min().orElseThrow();
                double max = cells.stream().mapToLong(SyntheticFleet.Cell::maxNs).max().orElseThrow();
                for (String q : List.of("p50", "p95", "p99")) {
                    double quantile = Integer.parseInt(q.substring(1)) / 100.0;
                    double want = Histograms.percentile(quantile, DruidDatasources.BUCKET_BOUNDS_NS, merged, min, max);
                    assertThat(p.path(q + "Ms").asDouble()).as("%s at %d", q, t)
                            .isEqualTo(Math.round(want / 1e3) / 1e3);
                }
            }
            assertThat(total).isEqualTo(TRACES);

            JsonNode client = get(c, "/api/series/red?service=orders&kind=client&route=" + query(SyntheticFleet.STOCK_PEER)
                    + "&method=GET&from=" + from + "&to=" + to + "&step=5m");
            long clientCalls = 0;
            for (JsonNode p : client.path("points")) {
                clientCalls += p.path("requests").asLong();
            }
            assertThat(clientCalls).isEqualTo(TRACES);
            JsonNode none = get(c, "/api/series/red?service=orders&kind=server&route=%2Fnothing&from=" + from
                    + "&to=" + to + "&step=5m");
            none.path("points").forEach(p -> assertThat(p.path("requests").asLong()).isZero());
        }
    }

    @Test
    void callMetricsOverARangeCountTheCellsOfItsMinutes() throws Exception {
        long from = Math.floorDiv(fleet.startMs, 60_000) * 60_000 + 5 * 60_000;
        long to = from + 10 * 60_000;
        long expected = fleet.cells.stream().filter(cell -> cell.kind().equals("server") && cell.tsMs() >= from
                && cell.tsMs() < to).mapToLong(SyntheticFleet.Cell::count).sum();
        assertThat(expected).isPositive();
        try (Collector c = queryNode("argus-")) {
            long served = 0;
            for (JsonNode m : get(c, "/api/metrics/http?kind=server&from=" + from + "&to=" + to)) {
                served += m.path("count").asLong();
            }
            assertThat(served).isEqualTo(expected);
        }
    }

    @Test
    void jvmSeriesTakeTheLastSampleOfEachStep() throws Exception {
        long step = 60_000;
        long from = Math.floorDiv(fleet.startMs, step) * step;
        long to = from + 10 * step;
        Map<Long, Double> lastPerStep = new java.util.TreeMap<>();
        fleet.gauges.stream().filter(g -> g.instance().equals("orders-2@host") && g.name().equals("heap.used")
                        && g.tsMs() >= from && g.tsMs() < to)
                .forEach(g -> lastPerStep.merge(Math.floorDiv(g.tsMs(), step) * step, g.value(), Math::max));
        try (Collector c = queryNode("argus-")) {
            JsonNode jvm = get(c, "/api/series/jvm?service=orders&from=" + from + "&to=" + to + "&step=1m");
            assertThat(jvm.path("service").asText()).isEqualTo("orders");
            assertThat(jvm.path("stepMs").asLong()).isEqualTo(step);
            assertThat(jvm.path("instances")).hasSize(2);
            JsonNode second = jvm.path("instances").get(1);
            assertThat(second.path("instance").asText()).isEqualTo("orders-2@host");
            List<String> names = new ArrayList<>();
            second.path("series").fieldNames().forEachRemaining(names::add);
            assertThat(names).containsExactly("heap.used", "threads");
            JsonNode heap = second.path("series").path("heap.used");
            assertThat(heap).hasSize(lastPerStep.size());
            int k = 0;
            for (Map.Entry<Long, Double> e : lastPerStep.entrySet()) {
                assertThat(heap.get(k).get(0).asLong()).isEqualTo(e.getKey());
                assertThat(heap.get(k).get(1).asDouble()).isEqualTo(e.getValue());
                k++;
            }
        }
    }

    @Test
    void rulesAreSetPerDatasource() throws Exception {
        JsonNode spans = druid.api().rules(specs.datasources().spans());
        assertThat(spans.get(0).path("type").asText()).isEqualTo("loadByPeriod");
        assertThat(spans.get(0).path("period").asText()).isEqualTo("PT168H");
        assertThat(spans.get(1).path("type").asText()).isEqualTo("dropForever");
        assertThat(druid.api().rules(specs.datasources().calls()).get(0).path("period").asText()).isEqualTo("PT720H");
    }

    @Test
    void theDataSketchesExtensionIsLoaded() throws Exception {
        List<JsonNode> rows = druid.api().sql("SELECT APPROX_QUANTILE_DS(duration_ns, 0.5) AS p50 FROM \"argus-spans\"");
        assertThat(rows.get(0).path("p50").asDouble()).isPositive();
    }

    @Test
    void aMissingDatasourceIsOneErrorNamingThePrefix() {
        assertThatThrownBy(() -> queryNode("nothing-"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--druid-datasource-prefix 'nothing-'")
                .hasMessageContaining("no datasource nothing-spans, nothing-calls, nothing-jvm, nothing-agents");
    }

    @Test
    void theOverlordAcceptsTheKafkaSupervisorSpecs() throws Exception {
        // another prefix, so that these supervisors never touch the datasources above
        DruidSpecs other = new DruidSpecs(new DruidDatasources("spec-check-"));
        try (var closed = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            String nowhere = "127.0.0.1:" + closed.getLocalPort();
            List<String> ids = new DruidIngestion(druid.api(), other).startSupervisors(nowhere);
            try {
                assertThat(ids).containsExactlyElementsOf(other.all());
                assertThat(druid.api().supervisors()).containsAll(other.all());
                // a query node takes a datasource with a supervisor but no segment yet, and answers it as empty
                try (Collector c = queryNode("spec-check-")) {
                    assertThat(get(c, "/api/traces")).isEmpty();
                    assertThat(get(c, "/api/services")).isEmpty();
                    assertThat(get(c, "/api/metrics/http")).isEmpty();
                }
            } finally {
                for (String id : ids) {
                    druid.api().terminateSupervisor(id);
                }
            }
        }
    }
}
