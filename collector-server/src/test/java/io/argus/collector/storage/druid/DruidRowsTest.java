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
                  "sent_spans":40},
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
                "127.0.0.1:5", false, 1764000001000L, 1764000099000L, 1764000090000L, 1, 2, 3, 40, 40));
        assertThat(agents.get(0).spansReceived()).isEqualTo(48);
        assertThat(agents.get(2).spansReceived()).isZero();
    }
}
