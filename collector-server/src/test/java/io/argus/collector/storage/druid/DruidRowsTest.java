package io.argus.collector.storage.druid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.CallMetricSummary;
import io.argus.collector.storage.Histograms;
import io.argus.collector.storage.JvmMetrics;
import io.argus.collector.storage.JvmPoint;
import io.argus.collector.storage.JvmSeries;
import io.argus.collector.storage.MergedHistogram;
import io.argus.collector.storage.RedPoint;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.RedSeries;
import io.argus.collector.storage.ServiceMap;
import io.argus.collector.storage.ServiceMapNode;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceSearchHit;
import io.argus.collector.storage.ServiceSummary;
import io.argus.collector.storage.SpanRecord;
import io.argus.collector.storage.TraceSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Druid's answers, as its SQL endpoint returns them (resultFormat object), turned into the API's shapes. */
class DruidRowsTest {
    private final ObjectMapper json = new ObjectMapper();
    private final DruidRows rows = new DruidRows(json);

    private List<JsonNode> parse(String text) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        json.readTree(text).forEach(out::add);
        return out;
    }

    @Test
    void spansSortedByStartWithRootAndTags() throws Exception {
        List<SpanRecord> spans = rows.spans(parse("""
                [{"span_id":"00000000000000b2","parent_span_id":"00000000000000a1","service":"stock","instance":"s-1",
                  "kind":"SERVER","name":"GET /stock","start_ns":1764000000200000000,"duration_ns":500000,
                  "status":"OK","tags":{"http.route":"/stock","http.status_code":"200"}},
                 {"span_id":"00000000000000a1","parent_span_id":"","service":"orders","instance":"o-1",
                  "kind":"SERVER","name":"GET /orders","start_ns":1764000000100000000,"duration_ns":2500000,
                  "status":"ERROR","tags":null},
                 {"span_id":"00000000000000c3","parent_span_id":"00000000000000a1","service":"orders","instance":"o-1",
                  "kind":"CLIENT","name":"GET","start_ns":1764000000150000000,"duration_ns":900000,
                  "status":"UNSET","tags":"{\\"peer\\":\\"stock\\"}"}]"""));
        assertThat(spans).extracting(SpanRecord::spanId)
                .containsExactly("00000000000000a1", "00000000000000c3", "00000000000000b2");
        SpanRecord root = spans.get(0);
        assertThat(root.parentSpanId()).isNull();
        assertThat(root.status()).isEqualTo("ERROR");
        assertThat(root.startEpochNanos()).isEqualTo(1764000000100000000L);
        assertThat(root.durationNanos()).isEqualTo(2500000L);
        assertThat(root.tags()).isEmpty();
        assertThat(spans.get(1).tags()).isEqualTo(Map.of("peer", "stock"));
        assertThat(spans.get(2).parentSpanId()).isEqualTo("00000000000000a1");
        assertThat(spans.get(2).tags()).containsExactly(Map.entry("http.route", "/stock"),
                Map.entry("http.status_code", "200"));
    }

    @Test
    void tracesNewestRootFirstWithSpanCounts() throws Exception {
        List<TraceSummary> traces = rows.traces(parse("""
                [{"trace_id":"t1","name":"GET /a","service":"orders","start_ns":1000000001,"duration_ns":3000000},
                 {"trace_id":"t2","name":"GET /b","service":"orders","start_ns":1000000005,"duration_ns":1500000},
                 {"trace_id":"t3","name":"GET /c","service":"stock","start_ns":999999999,"duration_ns":1}]"""),
                parse("""
                [{"trace_id":"t1","span_count":4},{"trace_id":"t2","span_count":2},{"trace_id":"t3","span_count":1}]
                """), 2);
        assertThat(traces).containsExactly(
                new TraceSummary("t2", "GET /b", "orders", 1000, 1.5, 2),
                new TraceSummary("t1", "GET /a", "orders", 1000, 3.0, 4));
    }

    @Test
    void callMetricsWithPercentilesFromSummedBuckets() throws Exception {
        // 100 calls: 90 in bucket 10, 10 in bucket 20
        StringBuilder row = new StringBuilder("""
                {"service":"orders","kind":"server","method":"GET","target":"/a","status":200,"count":100,
                 "errors":3,"sum_ns":250000000,"min_ns":80000,"max_ns":9000000""");
        for (int i = 0; i < DruidDatasources.BUCKETS; i++) {
            row.append(",\"").append(DruidDatasources.bucketColumn(i)).append("\":")
                    .append(i == 10 ? 90 : i == 20 ? 10 : 0);
        }
        row.append('}');
        String small = """
                {"service":"stock","kind":"db","method":"SELECT","target":"db","status":0,"count":2,
                 "errors":0,"sum_ns":2000000,"min_ns":1000000,"max_ns":1000000,"bucket_31":2}""";
        List<CallMetricSummary> out = rows.callMetrics(parse("[" + small + "," + row + "]"));
        assertThat(out).extracting(CallMetricSummary::service).containsExactly("orders", "stock");
        CallMetricSummary m = out.get(0);
        assertThat(m.count()).isEqualTo(100);
        assertThat(m.errors()).isEqualTo(3);
        assertThat(m.avgMs()).isEqualTo(2.5);
        assertThat(m.minMs()).isEqualTo(0.08);
        assertThat(m.maxMs()).isEqualTo(9.0);
        long[] counts = new long[DruidDatasources.BUCKETS];
        counts[10] = 90;
        counts[20] = 10;
        double p95 = Histograms.percentile(0.95, DruidDatasources.BUCKET_BOUNDS_NS, counts, 80_000, 9_000_000);
        assertThat(m.p95Ms()).isCloseTo(p95 / 1e6, within(0.001));
        // bucket 20 spans (bound 19, bound 20]: p95 lies inside it
        assertThat(m.p95Ms() * 1e6).isBetween((double) DruidDatasources.BUCKET_BOUNDS_NS[19],
                (double) DruidDatasources.BUCKET_BOUNDS_NS[20]);
        assertThat(out.get(1).p99Ms()).isEqualTo(1.0);
    }

    @Test
    void jvmKeepsTheLastPointsOfEachSeriesOldestFirst() throws Exception {
        JvmMetrics jvm = rows.jvm("orders", parse("""
                [{"instance":"o-1","name":"heap.used","ts_ms":3000,"value":30.0},
                 {"instance":"o-1","name":"threads","ts_ms":3000,"value":7.0},
                 {"instance":"o-1","name":"heap.used","ts_ms":2000,"value":20.0},
                 {"instance":"o-1","name":"heap.used","ts_ms":1000,"value":10.0},
                 {"instance":"o-2","name":"heap.used","ts_ms":2500,"value":5.0}]"""), 2);
        assertThat(jvm.service()).isEqualTo("orders");
        assertThat(jvm.instances()).hasSize(2);
        var first = jvm.instances().get(0);
        assertThat(first.instance()).isEqualTo("o-1");
        assertThat(first.latest()).containsExactly(Map.entry("heap.used", 30.0), Map.entry("threads", 7.0));
        assertThat(first.series().get("heap.used")).containsExactly(new JvmPoint(2000, 20.0), new JvmPoint(3000, 30.0));
        assertThat(jvm.instances().get(1).series().get("heap.used")).containsExactly(new JvmPoint(2500, 5.0));
    }

    @Test
    void servicesWithSortedInstancesAndTheirLatestContact() throws Exception {
        List<ServiceSummary> services = rows.services(parse("""
                [{"service":"stock","instance":"s-1","last_seen_ms":5},
                 {"service":"orders","instance":"o-2","last_seen_ms":9},
                 {"service":"orders","instance":"o-1","last_seen_ms":12}]"""));
        assertThat(services).containsExactly(new ServiceSummary("orders", List.of("o-1", "o-2"), 12),
                new ServiceSummary("stock", List.of("s-1"), 5));
    }

    @Test
    void agentsConnectedUntilTheyDisconnectOrFallSilent() throws Exception {
        long now = 1_764_000_100_000L;
        List<AgentInfo> agents = rows.agents(parse("""
                [{"service":"orders","instance":"o-2","last_event":"disconnected","agent_version":"0.1.0",
                  "host":"h","pid":12,"start_time_ms":1764000000000,"runtime_version":"17","protocol_version":1,
                  "remote_address":"127.0.0.1:5","connected_at_ms":1764000001000,"last_seen_ms":1764000099000,
                  "last_heartbeat_ms":1764000090000,"dropped_spans":1,"dropped_metrics":2,"advice_errors":3,
                  "sent_spans":40,"startup_mode":"parallel","observing_since_ms":1764000000400},
                 {"service":"orders","instance":"o-1","last_event":"heartbeat","agent_version":"0.1.0",
                  "host":"h","pid":11,"start_time_ms":1764000000000,"runtime_version":"17","protocol_version":1,
                  "remote_address":"127.0.0.1:4","connected_at_ms":1764000001000,"last_seen_ms":1764000095000,
                  "last_heartbeat_ms":1764000095000,"dropped_spans":0,"dropped_metrics":0,"advice_errors":0,
                  "sent_spans":50},
                 {"service":"stock","instance":"s-1","last_event":"heartbeat","agent_version":"0.1.0",
                  "host":"h","pid":13,"start_time_ms":1764000000000,"runtime_version":"17","protocol_version":1,
                  "remote_address":"127.0.0.1:6","connected_at_ms":1763000000000,"last_seen_ms":1763000000000,
                  "last_heartbeat_ms":1763000000000,"dropped_spans":0,"dropped_metrics":0,"advice_errors":0,
                  "sent_spans":0}]"""), parse("""
                [{"service":"orders","instance":"o-1","spans":48},{"service":"orders","instance":"o-2","spans":40}]
                """), now, 120_000);
        assertThat(agents).extracting(AgentInfo::instance).containsExactly("o-1", "o-2", "s-1");
        assertThat(agents).extracting(AgentInfo::connected).containsExactly(true, false, false);
        AgentInfo o2 = agents.get(1);
        assertThat(o2).isEqualTo(new AgentInfo("orders", "o-2", "0.1.0", "h", 12, 1764000000000L, "17", 1,
                "127.0.0.1:5", false, 1764000001000L, 1764000099000L, 1764000090000L, 1, 2, 3, 40, 40,
                "parallel", 1764000000400L));
        assertThat(agents.get(0).spansReceived()).isEqualTo(48);
        assertThat(agents.get(2).spansReceived()).isZero();
    }

    @Test
    void redSeriesHasEveryStepWithPercentilesAsTheEmbeddedStoreMergesThem() throws Exception {
        TimeRange range = new TimeRange(1_764_000_000_000L, 1_764_000_240_000L);
        StringBuilder row = new StringBuilder("""
                {"step_ms":1764000060000,"count":100,"errors":5,"min_ns":80000,"max_ns":9000000""");
        for (int i = 0; i < DruidDatasources.BUCKETS; i++) {
            row.append(",\"").append(DruidDatasources.bucketColumn(i)).append("\":")
                    .append(i == 10 ? 90 : i == 20 ? 10 : 0);
        }
        row.append('}');
        RedSeries red = rows.red(new RedQuery("orders", "server", null, "/a", range, 60_000), parse("[" + row + "]"));
        assertThat(red.service()).isEqualTo("orders");
        assertThat(red.route()).isEqualTo("/a");
        assertThat(red.stepMs()).isEqualTo(60_000);
        assertThat(red.points()).extracting(RedPoint::tsMs).containsExactly(1_764_000_000_000L, 1_764_000_060_000L,
                1_764_000_120_000L, 1_764_000_180_000L);
        assertThat(red.points().get(0)).isEqualTo(new RedPoint(1_764_000_000_000L, 0, 0, 0, 0, null, null, null));
        RedPoint p = red.points().get(1);
        assertThat(p.requests()).isEqualTo(100);
        assertThat(p.errors()).isEqualTo(5);
        assertThat(p.requestsPerSec()).isEqualTo(1.667);
        assertThat(p.errorRate()).isEqualTo(0.05);
        // the embedded store merges the same cells bound by bound: the same percentiles
        MergedHistogram merged = new MergedHistogram();
        for (int i = 0; i < DruidDatasources.BUCKET_BOUNDS_NS.length; i++) {
            merged.add(DruidDatasources.BUCKET_BOUNDS_NS[i], i == 10 ? 90 : i == 20 ? 10 : 0);
        }
        assertThat(p.p50Ms()).isEqualTo(Math.round(merged.percentile(0.50, 80_000, 9_000_000) / 1e3) / 1e3);
        assertThat(p.p95Ms()).isEqualTo(Math.round(merged.percentile(0.95, 80_000, 9_000_000) / 1e3) / 1e3);
        assertThat(p.p99Ms()).isEqualTo(Math.round(merged.percentile(0.99, 80_000, 9_000_000) / 1e3) / 1e3);
    }

    @Test
    void jvmSeriesPerInstanceAndGaugeOldestFirst() throws Exception {
        JvmSeries series = rows.jvmSeries("orders", 60_000, parse("""
                [{"instance":"o-2","name":"threads","step_ms":120000,"value":21.0},
                 {"instance":"o-1","name":"threads","step_ms":120000,"value":20.0},
                 {"instance":"o-1","name":"heap.used","step_ms":120000,"value":3.0},
                 {"instance":"o-1","name":"heap.used","step_ms":60000,"value":2.0}]"""));
        assertThat(series.service()).isEqualTo("orders");
        assertThat(series.stepMs()).isEqualTo(60_000);
        assertThat(series.instances()).hasSize(2);
        assertThat(series.instances().get(0).instance()).isEqualTo("o-1");
        assertThat(series.instances().get(0).series().keySet()).containsExactly("heap.used", "threads");
        assertThat(series.instances().get(0).series().get("heap.used"))
                .containsExactly(new JvmPoint(60_000, 2.0), new JvmPoint(120_000, 3.0));
        assertThat(series.instances().get(1).series().get("threads")).containsExactly(new JvmPoint(120_000, 21.0));
    }

    @Test
    void searchHitsKeepDruidsOrderAndTakeTheCountsOfEachSpanOnce() throws Exception {
        List<TraceSearchHit> hits = rows.searchHits(parse("""
                [{"trace_id":"b","span_count":4,"errors":2,"root_name":"GET /orders","root_service":"orders",
                  "root_start_ns":1764000000123456789,"root_duration_ns":2500000},
                 {"trace_id":"a","span_count":1,"errors":0,"root_name":"load","root_service":"stock",
                  "root_start_ns":1764000000000000000,"root_duration_ns":1000}]"""),
                // b holds one failed span twice
                parse("[{\"trace_id\":\"b\",\"span_count\":3,\"errors\":1}]"));
        assertThat(hits).containsExactly(
                new TraceSearchHit("b", "GET /orders", "orders", 1_764_000_000_123L, 2.5, 3, 1),
                new TraceSearchHit("a", "load", "stock", 1_764_000_000_000L, 0.001, 1, 0));
    }

    @Test
    void serviceMapNodesAndEdgesFromTheEdgeRows() throws Exception {
        TimeRange range = new TimeRange(0, 100_000);
        ServiceMap map = rows.serviceMap(range, parse("""
                [{"source":"stock","target":"db:postgresql/stock","target_type":"database","calls":10,"errors":0,
                  "p95_ns":1500000.0},
                 {"source":"orders","target":"stock","target_type":"service","calls":200,"errors":3,
                  "p95_ns":12345678.9},
                 {"source":"orders","target":"ext:pay.example:443","target_type":"external","calls":7,"errors":7,
                  "p95_ns":50000000}]"""), parse("[{\"service\":\"stock\"},{\"service\":\"idle\"}]"));
        assertThat(map.range()).isEqualTo(range);
        assertThat(map.nodes()).containsExactly(
                new ServiceMapNode("idle", "idle", ServiceMapNode.SERVICE),
                new ServiceMapNode("orders", "orders", ServiceMapNode.SERVICE),
                new ServiceMapNode("stock", "stock", ServiceMapNode.SERVICE),
                new ServiceMapNode("db:postgresql/stock", "postgresql/stock", ServiceMapNode.DATABASE),
                new ServiceMapNode("ext:pay.example:443", "pay.example:443", ServiceMapNode.EXTERNAL));
        assertThat(map.edges()).extracting(e -> e.source() + ">" + e.target())
                .containsExactly("orders>ext:pay.example:443", "orders>stock", "stock>db:postgresql/stock");
        var toStock = map.edges().get(1);
        assertThat(toStock.calls()).isEqualTo(200);
        assertThat(toStock.errors()).isEqualTo(3);
        assertThat(toStock.ratePerSec()).isEqualTo(2.0);
        assertThat(toStock.errorRate()).isEqualTo(0.015);
        assertThat(toStock.p95Ms()).isEqualTo(12.346);
        assertThat(map.edges().get(0).errorRate()).isEqualTo(1.0);
    }
}
