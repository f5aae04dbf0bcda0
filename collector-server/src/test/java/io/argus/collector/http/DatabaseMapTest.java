package io.argus.collector.http;

import static io.argus.collector.http.IngestRoundTripTest.call;
import static io.argus.collector.http.QueryApiTest.MS;
import static io.argus.collector.http.QueryApiTest.cells;
import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.storage.DatabaseNodes;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Databases of every kind on the service map from the database metrics (exact counts, also of untraced
 * calls), in the same node as their spans, and the job metrics (kind job) served per service.
 */
class DatabaseMapTest {
    static final long T0 = Math.floorDiv(System.currentTimeMillis() - 15 * 60_000, 60_000) * 60_000;
    static final String RANGE = "from=" + T0 + "&to=" + (T0 + 300_000);
    static final String REDIS = "db:redis/127.0.0.1:6379";

    @TempDir
    Path dataDir;

    @Test
    void databaseNodeIdsFromMetricTargets() {
        assertThat(DatabaseNodes.idOf("redis://127.0.0.1:6379")).isEqualTo(REDIS);
        assertThat(DatabaseNodes.idOf("mongodb://db:27017/catalog")).isEqualTo("db:mongodb/db:27017/catalog");
        assertThat(DatabaseNodes.idOf("h2:mem:shop")).isEqualTo("db:h2/mem:shop");
        assertThat(DatabaseNodes.idOf("h2:tcp://db:9092/~/test")).isEqualTo("db:h2/db:9092/~/test");
        assertThat(DatabaseNodes.idOf("postgresql://db:5432/orders")).isEqualTo("db:postgresql/db:5432/orders");
        assertThat(DatabaseNodes.idOf("jdbc")).isEqualTo("db:jdbc");
    }

    @Test
    void databaseMetricsMakeNodesAndEdgesAndJobMetricsAreServed() throws Exception {
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).build());
             TestAgent shop = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            shop.hello("shop", "shop-1");
            long t = (T0 + 10_000) * MS;
            // one traced request with a Redis span and a MongoDB span (sampling: most calls are not traced)
            shop.spans(SpanBatch.newBuilder()
                    .addSpans(span(0, 0xe1, 1, 0, SpanKind.SPAN_KIND_SERVER, "GET /api/products/{id}", t, 20 * MS,
                            SpanStatus.SPAN_STATUS_OK, "http.route", "/api/products/{id}"))
                    .addSpans(span(0, 0xe1, 2, 1, SpanKind.SPAN_KIND_CLIENT, "GET redis", t + MS, MS,
                            SpanStatus.SPAN_STATUS_OK, "db.system", "redis", "peer", "127.0.0.1:6379"))
                    .addSpans(span(0, 0xe1, 3, 1, SpanKind.SPAN_KIND_CLIENT, "find catalog", t + 2 * MS, 3 * MS,
                            SpanStatus.SPAN_STATUS_OK, "db.system", "mongodb", "db.name", "catalog",
                            "peer", "127.0.0.1:27017"))
                    .build());
            long ts = T0 + 10_000;
            shop.metrics(cells(ts, call(CallMetricKind.CALL_METRIC_KIND_DB, "GET", "redis://127.0.0.1:6379", 0, 40, 2,
                    40 * MS, MS / 2, 3 * MS, 30, 10)));
            shop.metrics(cells(ts, call(CallMetricKind.CALL_METRIC_KIND_DB, "SET", "redis://127.0.0.1:6379", 0, 10, 0,
                    10 * MS, MS / 2, MS, 10)));
            shop.metrics(cells(ts, call(CallMetricKind.CALL_METRIC_KIND_DB, "find", "mongodb://127.0.0.1:27017/catalog",
                    0, 8, 0, 24 * MS, 2 * MS, 4 * MS, 0, 4, 4)));
            shop.metrics(cells(ts, call(CallMetricKind.CALL_METRIC_KIND_DB, "SELECT", "h2:mem:shop", 0, 5, 0,
                    5 * MS, MS / 2, MS, 5)));
            shop.metrics(cells(ts, call(CallMetricKind.CALL_METRIC_KIND_JOB, "quartz", "reports.stock", 0, 6, 1,
                    600 * MS, 50 * MS, 200 * MS, 0, 0, 0, 0, 6)));
            api.awaitMetric("argus_collector_spans_stored_total", 3);
            api.awaitMetric("argus_collector_frames_received_total{type=\"metrics\"}", 5);
            assertThat(collector.flush(Duration.ofSeconds(10))).isTrue();

            JsonNode jobs = api.json("/api/metrics/http?service=shop&kind=job&" + RANGE);
            assertThat(jobs).hasSize(1);
            assertThat(jobs.get(0).get("kind").asText()).isEqualTo("job");
            assertThat(jobs.get(0).get("method").asText()).isEqualTo("quartz");
            assertThat(jobs.get(0).get("target").asText()).isEqualTo("reports.stock");
            assertThat(jobs.get(0).get("count").asLong()).isEqualTo(6);
            assertThat(jobs.get(0).get("errors").asLong()).isEqualTo(1);

            JsonNode map = api.json("/api/servicemap?" + RANGE);
            Map<String, String> nodes = new HashMap<>();
            map.get("nodes").forEach(n -> nodes.put(n.get("id").asText(), n.get("name").asText() + "|" + n.get("type").asText()));
            assertThat(nodes).containsOnly(Map.entry("shop", "shop|service"),
                    Map.entry(REDIS, "redis/127.0.0.1:6379|database"),
                    Map.entry("db:mongodb/127.0.0.1:27017/catalog", "mongodb/127.0.0.1:27017/catalog|database"),
                    Map.entry("db:h2/mem:shop", "h2/mem:shop|database"));
            Map<String, JsonNode> edges = new HashMap<>();
            map.get("edges").forEach(e -> edges.put(e.get("target").asText(), e));
            assertThat(edges).hasSize(3);
            // the metrics' exact counts, not the one traced call: GET and SET together
            assertThat(edges.get(REDIS).get("source").asText()).isEqualTo("shop");
            assertThat(edges.get(REDIS).get("calls").asLong()).isEqualTo(50);
            assertThat(edges.get(REDIS).get("errors").asLong()).isEqualTo(2);
            assertThat(edges.get(REDIS).get("errorRate").asDouble()).isEqualTo(0.04);
            assertThat(edges.get("db:mongodb/127.0.0.1:27017/catalog").get("calls").asLong()).isEqualTo(8);
            assertThat(edges.get("db:h2/mem:shop").get("calls").asLong()).isEqualTo(5);
            // the span of the traced call is found behind the same edge
            JsonNode traces = api.json("/api/servicemap/traces?source=shop&target="
                    + URLEncoder.encode(REDIS, StandardCharsets.UTF_8) + "&" + RANGE);
            assertThat(traces).hasSize(1);
            assertThat(traces.get(0).get("traceId").asText()).endsWith("e1");
            assertThat(api.json("/api/servicemap/traces?source=shop&target="
                    + URLEncoder.encode("db:mongodb/127.0.0.1:27017/catalog", StandardCharsets.UTF_8) + "&" + RANGE))
                    .hasSize(1);
        }
    }
}
