package io.argus.collector.storage.druid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.TagFilter;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceQuery;
import io.argus.collector.storage.TraceSearch;
import java.util.List;
import org.junit.jupiter.api.Test;

class DruidQueriesTest {
    private final DruidQueries queries = new DruidQueries(new DruidDatasources("argus-"));
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void traceByIdHasEachSpanOnce() {
        DruidStatement s = queries.trace("4bf92f3577b34da6a3ce929d0e0e4736");
        // a span stored twice is two equal rows: grouped by every column they are one
        assertThat(s.sql()).isEqualTo("SELECT span_id, parent_span_id, service, instance, kind, name, start_ns,"
                + " duration_ns, status, TO_JSON_STRING(tags) AS tags FROM \"argus-spans\" WHERE trace_id = ?"
                + " GROUP BY span_id, parent_span_id, service, instance, kind, name, start_ns, duration_ns, status,"
                + " TO_JSON_STRING(tags)");
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
    void spanCountsCountEachSpanOnceAndBindOneParameterPerTrace() {
        DruidStatement s = queries.spanCounts(List.of("a", "b", "c"));
        assertThat(s.sql()).isEqualTo("SELECT trace_id, COUNT(*) AS span_count, SUM(failed) AS errors FROM"
                + " (SELECT trace_id, span_id, MAX(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS failed"
                + " FROM \"argus-spans\" WHERE trace_id IN (?, ?, ?) GROUP BY trace_id, span_id) GROUP BY trace_id");
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

    private static final TimeRange HOUR = new TimeRange(1_764_000_000_000L, 1_764_003_600_000L);

    @Test
    void callMetricsOverARangeFilterOnTheMinuteTime() {
        DruidStatement s = queries.callMetrics("orders", null, HOUR);
        assertThat(s.sql()).endsWith(" FROM \"argus-calls\" WHERE service = ? AND __time >= MILLIS_TO_TIMESTAMP(?)"
                + " AND __time < MILLIS_TO_TIMESTAMP(?) GROUP BY service, kind, \"method\", target, status");
        assertThat(s.parameters()).containsExactly("orders", HOUR.fromMs(), HOUR.toMs());
    }

    @Test
    void redSeriesSumsCellsAndBucketsPerStepFromTheRangeStart() {
        DruidStatement all = queries.redSeries(new RedQuery("orders", "server", null, null, HOUR, 60_000));
        assertThat(all.sql()).startsWith("SELECT (TIMESTAMP_TO_MILLIS(__time) - 1764000000000) / 60000 * 60000"
                + " + 1764000000000 AS step_ms,"
                + " SUM(\"count\") AS \"count\", SUM(errors) AS errors, MIN(min_ns) AS min_ns, MAX(max_ns) AS max_ns,"
                + " SUM(bucket_00) AS bucket_00");
        assertThat(all.sql()).contains("SUM(bucket_71) AS bucket_71 FROM \"argus-calls\" WHERE service = ? AND kind = ?"
                + " AND __time >= MILLIS_TO_TIMESTAMP(?) AND __time < MILLIS_TO_TIMESTAMP(?)"
                + " GROUP BY (TIMESTAMP_TO_MILLIS(__time) - 1764000000000) / 60000 * 60000 + 1764000000000");
        assertThat(all.parameters()).containsExactly("orders", "server", HOUR.fromMs(), HOUR.toMs());

        DruidStatement one = queries.redSeries(new RedQuery("orders", "client", "GET", "stock:8080", HOUR, 300_000));
        assertThat(one.sql()).contains("AND \"method\" = ? AND target = ? GROUP BY (TIMESTAMP_TO_MILLIS(__time)"
                + " - 1764000000000) / 300000 * 300000 + 1764000000000");
        assertThat(one.parameters()).containsExactly("orders", "client", HOUR.fromMs(), HOUR.toMs(), "GET",
                "stock:8080");
    }

    @Test
    void jvmSeriesTakesTheLastSampleOfEachStep() {
        DruidStatement s = queries.jvmSeries("orders", HOUR, 120_000);
        assertThat(s.sql()).isEqualTo("SELECT instance, name, TIMESTAMP_TO_MILLIS(__time) / 120000 * 120000"
                + " AS step_ms, LATEST_BY(\"value\", __time) AS \"value\" FROM \"argus-jvm\" WHERE service = ?"
                + " AND __time >= MILLIS_TO_TIMESTAMP(?) AND __time < MILLIS_TO_TIMESTAMP(?)"
                + " AND \"value\" IS NOT NULL GROUP BY instance, name, TIMESTAMP_TO_MILLIS(__time) / 120000 * 120000");
        assertThat(s.parameters()).containsExactly("orders", HOUR.fromMs(), HOUR.toMs());
    }

    @Test
    void serviceMapJoinsClientSpansToTheirServerChildrenInTheRange() {
        DruidStatement edges = queries.serviceMapEdges(HOUR);
        assertThat(edges.sql()).startsWith("SELECT source, target, target_type, COUNT(*) AS calls,"
                + " SUM(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS errors,"
                + " APPROX_QUANTILE_DS(duration_ns, 0.95) AS p95_ns FROM (SELECT c.trace_id AS trace_id,"
                + " c.service AS source, CASE WHEN c.kind = 'PRODUCER' AND"
                + " JSON_VALUE(c.tags, '$[''messaging.destination.name'']') IS NOT NULL THEN 'topic:' ||"
                + " JSON_VALUE(c.tags, '$[''messaging.system'']') || '/' ||"
                + " JSON_VALUE(c.tags, '$[''messaging.destination.name'']')"
                + " WHEN callee.service IS NOT NULL THEN callee.service"
                + " WHEN JSON_VALUE(c.tags, '$[''db.system'']') IS NOT NULL THEN 'db:' ||");
        assertThat(edges.sql())
                .contains(" ELSE 'ext:' || COALESCE(NULLIF(JSON_VALUE(c.tags, '$.peer'), ''), NULLIF(REGEXP_EXTRACT("
                        + "JSON_VALUE(c.tags, '$[''http.url'']'), ?, 1), ''), c.name) END AS target,")
                .contains(" FROM \"argus-spans\" c LEFT JOIN (SELECT trace_id, parent_span_id,"
                        + " ANY_VALUE(service) AS service FROM \"argus-spans\" WHERE kind IN ('SERVER', 'CONSUMER')"
                        + " AND parent_span_id <> '' AND __time >= MILLIS_TO_TIMESTAMP(?)"
                        + " AND __time < MILLIS_TO_TIMESTAMP(?) GROUP BY trace_id, parent_span_id) callee"
                        + " ON c.trace_id = callee.trace_id AND c.span_id = callee.parent_span_id"
                        + " WHERE c.kind IN ('CLIENT', 'PRODUCER') AND c.__time >= MILLIS_TO_TIMESTAMP(?)"
                        + " AND c.__time < MILLIS_TO_TIMESTAMP(?)")
                .endsWith(") GROUP BY source, target, target_type");
        // the server side is read a minute beyond the range on each side (clock skew), the client side exactly
        // then, concatenated, the consumer spans of topics: from the topic to the consumer's service
        assertThat(edges.sql()).contains(" UNION ALL SELECT source, target, target_type, COUNT(*) AS calls,")
                .contains(" AS source, c.service AS target, 'service' AS target_type, c.status AS status,"
                        + " c.duration_ns AS duration_ns FROM \"argus-spans\" c WHERE c.kind = 'CONSUMER'");
        assertThat(edges.parameters()).containsExactly(DruidQueries.URL_HOST, HOUR.fromMs() - 60_000,
                HOUR.toMs() + 60_000, HOUR.fromMs(), HOUR.toMs(), HOUR.fromMs(), HOUR.toMs());
        assertThat("https://user@shop.example:8443/cart?x=1".replaceFirst(DruidQueries.URL_HOST + ".*", "$1"))
                .isEqualTo("shop.example:8443");

        DruidStatement services = queries.serviceMapServices(HOUR);
        assertThat(services.sql()).isEqualTo("SELECT service FROM \"argus-spans\" WHERE __time >= MILLIS_TO_TIMESTAMP(?)"
                + " AND __time < MILLIS_TO_TIMESTAMP(?) GROUP BY service");
        assertThat(services.parameters()).containsExactly(HOUR.fromMs(), HOUR.toMs());
    }

    @Test
    void edgeTracesAreTheTracesOfTheEdgesClientSpans() {
        DruidStatement s = queries.edgeTraces(new TraceSearch.Edge("orders", "ext:stock:8080"), HOUR);
        assertThat(s.sql()).startsWith("SELECT trace_id FROM (SELECT c.trace_id AS trace_id, c.service AS source,")
                .endsWith(") WHERE source = ? AND target = ? GROUP BY trace_id LIMIT ?");
        assertThat(s.parameters()).endsWith("orders", "ext:stock:8080", DruidQueries.MAX_EDGE_TRACES);
    }

    @Test
    void edgeTracesFromATopicAreTheTracesOfItsConsumerSpans() {
        DruidStatement s = queries.edgeTraces(new TraceSearch.Edge("topic:kafka/orders", "billing"), HOUR);
        assertThat(s.sql()).contains("WHERE c.kind = 'CONSUMER'")
                .endsWith(") WHERE source = ? AND target = ? GROUP BY trace_id LIMIT ?");
        assertThat(s.parameters()).containsExactly(HOUR.fromMs(), HOUR.toMs(), "topic:kafka/orders", "billing",
                DruidQueries.MAX_EDGE_TRACES);
    }

    @Test
    void searchGroupsByTraceAndFiltersOnItsRoot() {
        DruidStatement plain = queries.searchTraces(new TraceSearch(null, null, TraceSearch.Status.ANY, 0,
                Long.MAX_VALUE, null, List.of(), null, TraceSearch.Sort.TIME, 20), List.of());
        String rank = "MILLIS_TO_TIMESTAMP(TIMESTAMP_TO_MILLIS(__time) + CASE WHEN parent_span_id = ''"
                + " OR parent_span_id IS NULL THEN 0 ELSE 3153600000000 END)";
        assertThat(plain.sql()).isEqualTo("SELECT trace_id, COUNT(*) AS span_count,"
                + " SUM(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS errors,"
                + " EARLIEST_BY(name, " + rank + ", 4096) AS root_name,"
                + " EARLIEST_BY(service, " + rank + ", 1024) AS root_service,"
                + " EARLIEST_BY(start_ns, " + rank + ") AS root_start_ns,"
                + " EARLIEST_BY(duration_ns, " + rank + ") AS root_duration_ns FROM \"argus-spans\""
                + " GROUP BY trace_id HAVING EARLIEST_BY(duration_ns, " + rank + ") >= ?"
                + " ORDER BY root_start_ns DESC, trace_id LIMIT ?");
        assertThat(plain.parameters()).containsExactly(0L, 20);

        DruidStatement full = queries.searchTraces(new TraceSearch("orders", "/api/orders/{id}",
                TraceSearch.Status.ERROR, 1_000_000, 9_000_000, HOUR,
                List.of(new TagFilter("http.status_code", "500"), new TagFilter("peer", "stock:8080")), null,
                TraceSearch.Sort.DURATION, 5), List.of());
        assertThat(full.sql())
                .contains(" FROM \"argus-spans\" WHERE __time >= MILLIS_TO_TIMESTAMP(?)"
                        + " AND __time < MILLIS_TO_TIMESTAMP(?) GROUP BY trace_id HAVING ")
                .contains(" AND EARLIEST_BY(duration_ns, " + rank + ") <= ?")
                .contains(" AND EARLIEST_BY(start_ns, " + rank + ") >= ? AND EARLIEST_BY(start_ns, " + rank + ") < ?")
                .contains(" AND EARLIEST_BY(service, " + rank + ", 1024) = ?")
                .contains(" AND (EARLIEST_BY(JSON_VALUE(tags, '$[''http.route'']'), " + rank + ", 1024) = ?"
                        + " OR EARLIEST_BY(name, " + rank + ", 4096) = ? OR RIGHT(EARLIEST_BY(name, " + rank
                        + ", 4096), 17) = ?)")
                .contains(" AND SUM(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) > 0")
                .contains(" AND MAX(CASE WHEN JSON_VALUE(tags, ?) = ? THEN 1 ELSE 0 END) = 1 AND MAX(")
                .endsWith(" ORDER BY root_duration_ns DESC, root_start_ns DESC, trace_id LIMIT ?");
        assertThat(full.parameters()).containsExactly(HOUR.fromMs() - 60_000, HOUR.toMs() + 60_000, 1_000_000L,
                9_000_000L, HOUR.fromNanos(), HOUR.toNanos(), "orders", "/api/orders/{id}", "/api/orders/{id}",
                " /api/orders/{id}", "$['http.status_code']", "500", "$['peer']", "stock:8080", 5);

        DruidStatement ok = queries.searchTraces(new TraceSearch(null, null, TraceSearch.Status.OK, 0,
                Long.MAX_VALUE, HOUR, List.of(), new TraceSearch.Edge("orders", "stock"), TraceSearch.Sort.TIME, 3),
                List.of("t1", "t2"));
        assertThat(ok.sql()).contains(" WHERE __time >= MILLIS_TO_TIMESTAMP(?) AND __time < MILLIS_TO_TIMESTAMP(?)"
                + " AND trace_id IN (?, ?) GROUP BY trace_id")
                .contains(" AND SUM(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) = 0");
        assertThat(ok.parameters()).containsExactly(HOUR.fromMs() - 60_000, HOUR.toMs() + 60_000, "t1", "t2", 0L,
                HOUR.fromNanos(), HOUR.toNanos(), 3);
    }

    @Test
    void aTagKeyWithAQuoteHasNoDruidPath() {
        assertThat(DruidQueries.tagPath("db.system")).isEqualTo("$['db.system']");
        assertThatThrownBy(() -> DruidQueries.tagPath("it's"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tag key it's");
    }
}
