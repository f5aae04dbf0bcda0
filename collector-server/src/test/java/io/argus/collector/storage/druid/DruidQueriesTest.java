package io.argus.collector.storage.druid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.storage.TraceQuery;
import java.util.List;
import org.junit.jupiter.api.Test;

class DruidQueriesTest {
    private final DruidQueries queries = new DruidQueries(new DruidDatasources("argus-"));
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void traceById() {
        DruidStatement s = queries.trace("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(s.sql()).isEqualTo("SELECT span_id, parent_span_id, service, instance, kind, name, start_ns,"
                + " duration_ns, status, tags FROM \"argus-spans\" WHERE trace_id = ?");
        assertThat(s.parameters()).containsExactly("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void recentRootsWithAndWithoutService() {
        DruidStatement all = queries.recentRoots(new TraceQuery(null, 0, 20));
        assertThat(all.sql()).isEqualTo("SELECT trace_id, name, service, start_ns, duration_ns FROM \"argus-spans\""
                + " WHERE (parent_span_id = '' OR parent_span_id IS NULL) AND duration_ns >= ?"
                + " ORDER BY __time DESC LIMIT ?");
        assertThat(all.parameters()).containsExactly(0L, 20);

        DruidStatement one = queries.recentRoots(new TraceQuery("orders", 5_000_000, 7));
        assertThat(one.sql()).contains("AND duration_ns >= ? AND service = ? ORDER BY __time DESC LIMIT ?");
        assertThat(one.parameters()).containsExactly(5_000_000L, "orders", 7);
    }

    @Test
    void spanCountsBindOneParameterPerTrace() {
        DruidStatement s = queries.spanCounts(List.of("a", "b", "c"));
        assertThat(s.sql()).isEqualTo("SELECT trace_id, COUNT(*) AS span_count FROM \"argus-spans\""
                + " WHERE trace_id IN (?, ?, ?) GROUP BY trace_id");
        assertThat(s.parameters()).containsExactly("a", "b", "c");
    }

    @Test
    void callMetricsSumEveryBucket() {
        DruidStatement all = queries.callMetrics(null, null);
        assertThat(all.sql()).startsWith("SELECT service, kind, \"method\", target, status, SUM(\"count\") AS \"count\","
                + " SUM(errors) AS errors, SUM(sum_ns) AS sum_ns, MIN(min_ns) AS min_ns, MAX(max_ns) AS max_ns,"
                + " SUM(bucket_00) AS bucket_00, SUM(bucket_01) AS bucket_01");
        assertThat(all.sql()).contains("SUM(bucket_71) AS bucket_71 FROM \"argus-calls\" GROUP BY service, kind,"
                + " \"method\", target, status");
        assertThat(all.sql()).doesNotContain("bucket_72").doesNotContain("WHERE");
        assertThat(all.parameters()).isEmpty();

        DruidStatement filtered = queries.callMetrics("orders", "server");
        assertThat(filtered.sql()).endsWith(" FROM \"argus-calls\" WHERE service = ? AND kind = ?"
                + " GROUP BY service, kind, \"method\", target, status");
        assertThat(filtered.parameters()).containsExactly("orders", "server");
        assertThat(queries.callMetrics(null, "db").parameters()).containsExactly("db");
    }

    @Test
    void jvmSamplesReadEnoughRowsForEverySeries() {
        DruidStatement series = queries.jvmSeries("orders");
        assertThat(series.sql()).isEqualTo("SELECT instance, name FROM \"argus-jvm\" WHERE service = ?"
                + " GROUP BY instance, name");
        assertThat(series.parameters()).containsExactly("orders");

        DruidStatement samples = queries.jvmSamples("orders", 60, 12);
        assertThat(samples.sql()).isEqualTo("SELECT instance, name, TIMESTAMP_TO_MILLIS(__time) AS ts_ms, \"value\""
                + " FROM \"argus-jvm\" WHERE service = ? ORDER BY __time DESC LIMIT ?");
        assertThat(samples.parameters()).containsExactly("orders", 720L);
        assertThat(queries.jvmSamples("orders", 60, 1_000_000).parameters())
                .containsExactly("orders", (long) DruidQueries.MAX_JVM_ROWS);
    }

    @Test
    void agentsFromTheirLatestSessionEvent() {
        DruidStatement s = queries.agents();
        assertThat(s.sql()).contains("LATEST_BY(\"event\", __time, 32) AS last_event")
                .contains("MAX(CASE WHEN \"event\" = 'connected' THEN TIMESTAMP_TO_MILLIS(__time) ELSE 0 END)"
                        + " AS connected_at_ms")
                .contains("LATEST_BY(sent_spans, __time) AS sent_spans")
                .endsWith("FROM \"argus-agents\" GROUP BY service, instance");
        assertThat(s.parameters()).isEmpty();
        assertThat(queries.services().sql()).isEqualTo("SELECT service, instance,"
                + " MAX(TIMESTAMP_TO_MILLIS(__time)) AS last_seen_ms FROM \"argus-agents\" GROUP BY service, instance");
        assertThat(queries.services().parameters()).isEmpty();
        assertThat(queries.spansPerInstance().sql()).isEqualTo("SELECT service, instance, COUNT(*) AS spans"
                + " FROM \"argus-spans\" GROUP BY service, instance");
    }

    @Test
    void prefixNamesEveryDatasource() {
        DruidQueries other = new DruidQueries(new DruidDatasources("apm_"));
        assertThat(other.trace("x").sql()).contains("FROM \"apm_spans\"");
        assertThat(other.callMetrics(null, null).sql()).contains("FROM \"apm_calls\"");
        assertThat(other.jvmSeries("s").sql()).contains("FROM \"apm_jvm\"");
        assertThat(other.agents().sql()).contains("FROM \"apm_agents\"");
    }

    @Test
    void requestBodyCarriesTypedParameters() {
        JsonNode body = new DruidStatement("SELECT ? , ?, ?", List.of("s", 5L, 1.5)).body(json);
        assertThat(body.path("query").asText()).isEqualTo("SELECT ? , ?, ?");
        assertThat(body.path("resultFormat").asText()).isEqualTo("object");
        assertThat(body.path("context").path("sqlTimeZone").asText()).isEqualTo("Etc/UTC");
        assertThat(body.path("parameters").toString()).isEqualTo("[{\"type\":\"VARCHAR\",\"value\":\"s\"},"
                + "{\"type\":\"BIGINT\",\"value\":5},{\"type\":\"DOUBLE\",\"value\":1.5}]");
    }

    @Test
    void parameterMarksMustMatchValues() {
        assertThatThrownBy(() -> new DruidStatement("SELECT ?", List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 parameter marks but 0 values");
    }
}
