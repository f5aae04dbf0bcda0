package io.argus.collector.storage.druid;

import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.ServiceMapNode;
import io.argus.collector.storage.TagFilter;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceQuery;
import io.argus.collector.storage.TraceSearch;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The Druid SQL behind each query endpoint. Every value of a request is a dynamic parameter; datasource names are
 * quoted identifiers (the prefix is restricted to letters, digits, '_', '.' and '-'). Only numbers the collector
 * computed are written into the text: a series' step (its expression appears in both the select list and the
 * grouping) and the length of a route suffix.
 */
final class DruidQueries {
    /** Rows the JVM series query reads at most, whatever the number of series. */
    static final int MAX_JVM_ROWS = 100_000;
    /**
     * How far outside a time range the spans of its traces are read: a server span may start outside the range of
     * its client span (clock skew between hosts), and a trace's spans start after its root.
     */
    static final long SKEW_MS = 60_000;
    /** Traces along one service map edge that a trace search looks at, newest client span first. */
    static final int MAX_EDGE_TRACES = 10_000;
    /** The host of an absolute URL: after the scheme and any user info, up to the path, query or fragment. */
    static final String URL_HOST = "^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^/?#@]*@)?([^/?#]+)";
    /**
     * The rank that makes a trace's root its earliest span: roots by start, every other span a century later (so
     * the earliest span stands for the trace while no root is stored).
     */
    private static final String ROOT_RANK = "MILLIS_TO_TIMESTAMP(TIMESTAMP_TO_MILLIS(__time) + CASE WHEN"
            + " parent_span_id = '' OR parent_span_id IS NULL THEN 0 ELSE 3153600000000 END)";

    private final DruidDatasources ds;

    DruidQueries(DruidDatasources ds) {
        this.ds = ds;
    }

    private static String quoted(String identifier) {
        return '"' + identifier + '"';
    }

    /**
     * {@code /api/traces/{id}}: every span of one trace (sorted by start afterwards), each once. A span stored twice
     * (an agent sent again what a lost collector had not acknowledged) is two equal rows: grouped by every column
     * (the tags as their JSON text), they are one.
     */
    DruidStatement trace(String traceIdHex) {
        String columns = "span_id, parent_span_id, service, instance, kind, name, start_ns, duration_ns, status";
        return new DruidStatement("SELECT " + columns + ", TO_JSON_STRING(tags) AS tags FROM " + quoted(ds.spans())
                + " WHERE trace_id = ? GROUP BY " + columns + ", TO_JSON_STRING(tags)", List.of(traceIdHex));
    }

    /**
     * {@code /api/traces}, step one: the newest root spans that pass the filter (a root has an empty parent id).
     * Druid orders a scan by {@code __time} (milliseconds); the exact order by start nanoseconds is made afterwards.
     */
    DruidStatement recentRoots(TraceQuery q) {
        List<Object> params = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT trace_id, name, service, start_ns, duration_ns FROM ")
                .append(quoted(ds.spans()))
                .append(" WHERE (parent_span_id = '' OR parent_span_id IS NULL) AND duration_ns >= ?");
        params.add(q.minDurationNanos());
        if (q.service() != null) {
            sql.append(" AND service = ?");
            params.add(q.service());
        }
        sql.append(" ORDER BY __time DESC LIMIT ?");
        params.add(q.limit());
        return new DruidStatement(sql.toString(), params);
    }

    /**
     * {@code /api/traces} and trace search, step two: the spans and failed spans of each listed trace, a span stored
     * twice (sent again after a lost acknowledgement) counted once: grouped by (trace id, span id) first.
     */
    DruidStatement spanCounts(List<String> traceIds) {
        String marks = marks(traceIds.size());
        return new DruidStatement("SELECT trace_id, COUNT(*) AS span_count, SUM(failed) AS errors FROM"
                + " (SELECT trace_id, span_id, MAX(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS failed FROM "
                + quoted(ds.spans()) + " WHERE trace_id IN (" + marks + ") GROUP BY trace_id, span_id)"
                + " GROUP BY trace_id", new ArrayList<>(traceIds));
    }

    /**
     * {@code /api/metrics/http}: the rolled-up cells summed per (service, kind, method, target, status), with the
     * summed histogram buckets for the percentiles.
     */
    DruidStatement callMetrics(String service, String kind) {
        return callMetrics(service, kind, null);
    }

    /** Like {@link #callMetrics(String, String)}, over the cells whose minute starts in {@code range}. */
    DruidStatement callMetrics(String service, String kind, TimeRange range) {
        // METHOD is a reserved word of Druid's SQL parser: every dimension is quoted
        StringBuilder sql = new StringBuilder("SELECT service, kind, \"method\", target, status,"
                + " SUM(\"count\") AS \"count\","
                + " SUM(errors) AS errors, SUM(sum_ns) AS sum_ns, MIN(min_ns) AS min_ns, MAX(max_ns) AS max_ns");
        sql.append(bucketSums());
        sql.append(" FROM ").append(quoted(ds.calls()));
        List<Object> params = new ArrayList<>();
        List<String> where = new ArrayList<>();
        if (service != null) {
            where.add("service = ?");
            params.add(service);
        }
        if (kind != null) {
            where.add("kind = ?");
            params.add(kind);
        }
        if (range != null) {
            where.add(TIME_IN_RANGE);
            params.add(range.fromMs());
            params.add(range.toMs());
        }
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        sql.append(" GROUP BY service, kind, \"method\", target, status");
        return new DruidStatement(sql.toString(), params);
    }

    /** {@code , SUM(bucket_00) AS bucket_00, ...}: every histogram bucket summed. */
    private static String bucketSums() {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < DruidDatasources.BUCKETS; i++) {
            String col = DruidDatasources.bucketColumn(i);
            sql.append(", SUM(").append(col).append(") AS ").append(col);
        }
        return sql.toString();
    }

    private static final String TIME_IN_RANGE = "__time >= MILLIS_TO_TIMESTAMP(?) AND __time < MILLIS_TO_TIMESTAMP(?)";

    /** The start of the step a row's time falls in (steps are epoch-aligned multiples of {@code stepMs}). */
    private static String stepStart(long stepMs) {
        return "TIMESTAMP_TO_MILLIS(__time) / " + stepMs + " * " + stepMs;
    }

    /**
     * {@code /api/series/red}: per step the calls, errors, extremes and summed histogram buckets of the service's
     * cells (steps without a cell are filled in afterwards).
     */
    DruidStatement redSeries(RedQuery q) {
        long from = q.range().fromMs();
        String step = "(TIMESTAMP_TO_MILLIS(__time) - " + from + ") / " + q.stepMs() + " * " + q.stepMs() + " + "
                + from;
        StringBuilder sql = new StringBuilder("SELECT ").append(step).append(" AS step_ms, SUM(\"count\") AS \"count\","
                + " SUM(errors) AS errors, MIN(min_ns) AS min_ns, MAX(max_ns) AS max_ns").append(bucketSums())
                .append(" FROM ").append(quoted(ds.calls())).append(" WHERE service = ? AND kind = ? AND ")
                .append(TIME_IN_RANGE);
        List<Object> params = new ArrayList<>(List.of(q.service(), q.kind(), q.range().fromMs(), q.range().toMs()));
        if (q.method() != null) {
            sql.append(" AND \"method\" = ?");
            params.add(q.method());
        }
        if (q.route() != null) {
            sql.append(" AND target = ?");
            params.add(q.route());
        }
        sql.append(" GROUP BY ").append(step);
        return new DruidStatement(sql.toString(), params);
    }

    /** {@code /api/series/jvm}: per instance, gauge and step the last sample (JSON has no NaN: those are null). */
    DruidStatement jvmSeries(String service, TimeRange range, long stepMs) {
        String step = stepStart(stepMs);
        return new DruidStatement("SELECT instance, name, " + step + " AS step_ms,"
                + " LATEST_BY(\"value\", __time) AS \"value\" FROM " + quoted(ds.jvm())
                + " WHERE service = ? AND " + TIME_IN_RANGE + " AND \"value\" IS NOT NULL"
                + " GROUP BY instance, name, " + step, List.of(service, range.fromMs(), range.toMs()));
    }

    private static final String DESTINATION = "JSON_VALUE(c.tags, '$[''messaging.destination.name'']')";
    /** A message span's topic node: {@code topic:<messaging.system>/<destination>}. */
    private static final String TOPIC = "'" + ServiceMapNode.TOPIC_PREFIX
            + "' || JSON_VALUE(c.tags, '$[''messaging.system'']') || '/' || " + DESTINATION;

    /**
     * One row per consumer span of a topic that started in {@code range}, as {@link #edgeSpans} has them: from the
     * topic to the consumer's service.
     */
    private String topicEdgeSpans(TimeRange range, List<Object> params) {
        params.add(range.fromMs());
        params.add(range.toMs());
        return "SELECT c.trace_id AS trace_id, " + TOPIC + " AS source, c.service AS target,"
                + " 'service' AS target_type, c.status AS status, c.duration_ns AS duration_ns"
                + " FROM " + quoted(ds.spans()) + " c WHERE c.kind = 'CONSUMER' AND " + DESTINATION + " IS NOT NULL"
                + " AND c.__time >= MILLIS_TO_TIMESTAMP(?) AND c.__time < MILLIS_TO_TIMESTAMP(?)";
    }

    /**
     * One row per client (or producer) span that started in {@code range}: {@code trace_id}, {@code source}
     * service, {@code target} node id and {@code target_type}, {@code status} and {@code duration_ns}. A producer
     * span's target is its topic. The callee is the service of the span's server child when one is stored (a join on the trace and parent span
     * ids, the child side read over the range widened by {@link #SKEW_MS}); otherwise the database ({@code db.system}
     * tag) or the host ({@code peer} tag, or the host of {@code http.url}, or the span's name) it called.
     */
    private String edgeSpans(TimeRange range, List<Object> params) {
        String dbSystem = "JSON_VALUE(c.tags, '$[''db.system'']')";
        String dbName = "JSON_VALUE(c.tags, '$[''db.name'']')";
        String dbPeer = "NULLIF(JSON_VALUE(c.tags, '$.peer'), '')";
        // the node a database's metrics name too (DatabaseNodes): system, then server and database
        String dbNode = "COALESCE('/' || " + dbPeer + " || COALESCE('/' || " + dbName + ", ''), '/' || " + dbName
                + ", '')";
        String host = "COALESCE(NULLIF(JSON_VALUE(c.tags, '$.peer'), ''), NULLIF(REGEXP_EXTRACT("
                + "JSON_VALUE(c.tags, '$[''http.url'']'), ?, 1), ''), c.name)";
        String sql = "SELECT c.trace_id AS trace_id, c.service AS source,"
                + " CASE WHEN c.kind = 'PRODUCER' AND " + DESTINATION + " IS NOT NULL THEN " + TOPIC
                + " WHEN callee.service IS NOT NULL THEN callee.service"
                + " WHEN " + dbSystem + " IS NOT NULL THEN '" + ServiceMapNode.DB_PREFIX + "' || " + dbSystem
                + " || " + dbNode
                + " ELSE '" + ServiceMapNode.EXTERNAL_PREFIX + "' || " + host + " END AS target,"
                + " CASE WHEN c.kind = 'PRODUCER' AND " + DESTINATION + " IS NOT NULL THEN 'topic'"
                + " WHEN callee.service IS NOT NULL THEN 'service' WHEN " + dbSystem
                + " IS NOT NULL THEN 'database' ELSE 'external' END AS target_type,"
                + " c.status AS status, c.duration_ns AS duration_ns"
                + " FROM " + quoted(ds.spans()) + " c LEFT JOIN (SELECT trace_id, parent_span_id,"
                + " ANY_VALUE(service) AS service FROM " + quoted(ds.spans())
                + " WHERE kind IN ('SERVER', 'CONSUMER') AND parent_span_id <> '' AND " + TIME_IN_RANGE
                + " GROUP BY trace_id, parent_span_id) callee"
                + " ON c.trace_id = callee.trace_id AND c.span_id = callee.parent_span_id"
                + " WHERE c.kind IN ('CLIENT', 'PRODUCER') AND c.__time >= MILLIS_TO_TIMESTAMP(?)"
                + " AND c.__time < MILLIS_TO_TIMESTAMP(?)";
        params.add(URL_HOST);
        params.add(range.fromMs() - SKEW_MS);
        params.add(range.toMs() + SKEW_MS);
        params.add(range.fromMs());
        params.add(range.toMs());
        return sql;
    }

    /**
     * {@code /api/servicemap}, the edges: calls, errors and the 95th percentile of the client spans' durations (a
     * DataSketches quantile sketch) per (source, target), and the same of the consumer spans per (topic, service).
     */
    DruidStatement serviceMapEdges(TimeRange range) {
        List<Object> params = new ArrayList<>();
        // top-level UNION ALL: Druid runs the two queries one after the other and concatenates their rows
        String sql = edgeRollup(edgeSpans(range, params)) + " UNION ALL " + edgeRollup(topicEdgeSpans(range, params));
        return new DruidStatement(sql, params);
    }

    private static String edgeRollup(String spans) {
        return "SELECT source, target, target_type, COUNT(*) AS calls,"
                + " SUM(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END) AS errors,"
                + " APPROX_QUANTILE_DS(duration_ns, 0.95) AS p95_ns FROM (" + spans + ")"
                + " GROUP BY source, target, target_type";
    }

    /** {@code /api/servicemap}, the nodes: every service with a span that started in the range. */
    DruidStatement serviceMapServices(TimeRange range) {
        return new DruidStatement("SELECT service FROM " + quoted(ds.spans()) + " WHERE " + TIME_IN_RANGE
                + " GROUP BY service", List.of(range.fromMs(), range.toMs()));
    }

    /**
     * Trace search along a service map edge, step one: the traces with a client span from {@code edge.source()} to
     * {@code edge.target()} in the range, at most {@link #MAX_EDGE_TRACES}.
     */
    DruidStatement edgeTraces(TraceSearch.Edge edge, TimeRange range) {
        List<Object> params = new ArrayList<>();
        String spans = edge.source().startsWith(ServiceMapNode.TOPIC_PREFIX) ? topicEdgeSpans(range, params)
                : edgeSpans(range, params);
        String sql = "SELECT trace_id FROM (" + spans + ") WHERE source = ? AND target = ?"
                + " GROUP BY trace_id LIMIT ?";
        params.add(edge.source());
        params.add(edge.target());
        params.add(MAX_EDGE_TRACES);
        return new DruidStatement(sql, params);
    }

    /**
     * {@code /api/traces} with search parameters: per trace its span and error counts and its root (the earliest
     * root span, or the earliest span while no root is stored), filtered on the root, the errors and the tags of any
     * span. With a range, the spans read are those of the range widened by {@link #SKEW_MS} on each side; along an
     * edge, those of the traces {@link #edgeTraces} found. A span stored twice counts twice here (counting distinct
     * spans over every trace of a range would cost a nested query); the traces found are counted again by
     * {@link #spanCounts}. Which traces match does not depend on it.
     *
     * @param edgeTraceIds the traces along {@code q.edge()}; ignored without an edge
     */
    DruidStatement searchTraces(TraceSearch q, List<String> edgeTraceIds) {
        List<Object> params = new ArrayList<>();
        String rootName = "EARLIEST_BY(name, " + ROOT_RANK + ", 4096)";
        String rootService = "EARLIEST_BY(service, " + ROOT_RANK + ", 1024)";
        String rootStart = "EARLIEST_BY(start_ns, " + ROOT_RANK + ")";
        String rootDuration = "EARLIEST_BY(duration_ns, " + ROOT_RANK + ")";
        String errors = "SUM(CASE WHEN status = 'ERROR' THEN 1 ELSE 0 END)";
        StringBuilder sql = new StringBuilder("SELECT trace_id, COUNT(*) AS span_count, ").append(errors)
                .append(" AS errors, ").append(rootName).append(" AS root_name, ").append(rootService)
                .append(" AS root_service, ").append(rootStart).append(" AS root_start_ns, ").append(rootDuration)
                .append(" AS root_duration_ns FROM ").append(quoted(ds.spans()));
        List<String> where = new ArrayList<>();
        if (q.range() != null) {
            where.add(TIME_IN_RANGE);
            params.add(q.range().fromMs() - SKEW_MS);
            params.add(q.range().toMs() + SKEW_MS);
        }
        if (q.edge() != null) {
            where.add("trace_id IN (" + marks(edgeTraceIds.size()) + ")");
            params.addAll(edgeTraceIds);
        }
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        sql.append(" GROUP BY trace_id HAVING ").append(rootDuration).append(" >= ?");
        params.add(q.minDurationNanos());
        if (q.maxDurationNanos() != Long.MAX_VALUE) {
            sql.append(" AND ").append(rootDuration).append(" <= ?");
            params.add(q.maxDurationNanos());
        }
        if (q.range() != null) {
            sql.append(" AND ").append(rootStart).append(" >= ? AND ").append(rootStart).append(" < ?");
            params.add(q.range().fromNanos());
            params.add(q.range().toNanos());
        }
        if (q.service() != null) {
            sql.append(" AND ").append(rootService).append(" = ?");
            params.add(q.service());
        }
        if (q.route() != null) {
            // its http.route tag, its name, or the end of its name after a space ("GET /orders" for "/orders")
            String suffix = " " + q.route();
            sql.append(" AND (EARLIEST_BY(JSON_VALUE(tags, '$[''http.route'']'), ").append(ROOT_RANK)
                    .append(", 1024) = ? OR ").append(rootName).append(" = ? OR RIGHT(").append(rootName)
                    .append(", ").append(suffix.length()).append(") = ?)");
            params.add(q.route());
            params.add(q.route());
            params.add(suffix);
        }
        switch (q.status()) {
            case ERROR -> sql.append(" AND ").append(errors).append(" > 0");
            case OK -> sql.append(" AND ").append(errors).append(" = 0");
            default -> {
            }
        }
        for (TagFilter tag : q.tags()) {
            sql.append(" AND MAX(CASE WHEN JSON_VALUE(tags, ?) = ? THEN 1 ELSE 0 END) = 1");
            params.add(tagPath(tag.key()));
            params.add(tag.value());
        }
        sql.append(q.sort() == TraceSearch.Sort.DURATION ? " ORDER BY root_duration_ns DESC, root_start_ns DESC"
                : " ORDER BY root_start_ns DESC").append(", trace_id LIMIT ?");
        params.add(q.limit());
        return new DruidStatement(sql.toString(), params);
    }

    /**
     * The JSON path of tag {@code key} in the {@code tags} column, in bracket notation (keys hold dots). Druid's
     * path syntax has no escape for a quote inside a name.
     *
     * @throws IllegalArgumentException for a key with a single quote
     */
    static String tagPath(String key) {
        if (key.indexOf('\'') >= 0) {
            throw new IllegalArgumentException("tag key " + key + " holds a quote, which a Druid JSON path cannot");
        }
        return "$['" + key + "']";
    }

    private static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    /** {@code /api/metrics/jvm}, step one: how many gauge series (instance, name) the service has. */
    DruidStatement jvmSeries(String service) {
        return new DruidStatement("SELECT instance, name FROM " + quoted(ds.jvm())
                + " WHERE service = ? GROUP BY instance, name", List.of(service));
    }

    /**
     * {@code /api/metrics/jvm}, step two: the newest samples of the service, enough for {@code points} per series
     * (every series is sampled once per batch); the last {@code points} of each are kept afterwards.
     */
    DruidStatement jvmSamples(String service, int points, int series) {
        long rows = Math.min((long) points * Math.max(1, series), MAX_JVM_ROWS);
        return new DruidStatement("SELECT instance, name, TIMESTAMP_TO_MILLIS(__time) AS ts_ms, \"value\" FROM "
                + quoted(ds.jvm()) + " WHERE service = ? ORDER BY __time DESC LIMIT ?", List.of(service, rows));
    }

    /**
     * {@code /api/agents} and {@code /api/services}: per agent instance its latest session event and the handshake
     * and heartbeat counters it carried, when it last connected, was last heard from and last sent a heartbeat.
     */
    DruidStatement agents() {
        return new DruidStatement("""
                SELECT service, instance,
                  LATEST_BY("event", __time, 32) AS last_event,
                  LATEST_BY(agent_version, __time, 256) AS agent_version,
                  LATEST_BY(host, __time, 512) AS host,
                  LATEST_BY(pid, __time) AS pid,
                  LATEST_BY(start_time_ms, __time) AS start_time_ms,
                  LATEST_BY(runtime_version, __time, 256) AS runtime_version,
                  LATEST_BY(protocol_version, __time) AS protocol_version,
                  LATEST_BY(remote_address, __time, 256) AS remote_address,
                  MAX(CASE WHEN "event" = 'connected' THEN TIMESTAMP_TO_MILLIS(__time) ELSE 0 END) AS connected_at_ms,
                  MAX(TIMESTAMP_TO_MILLIS(__time)) AS last_seen_ms,
                  MAX(CASE WHEN "event" = 'heartbeat' THEN TIMESTAMP_TO_MILLIS(__time) ELSE 0 END) AS last_heartbeat_ms,
                  LATEST_BY(dropped_spans, __time) AS dropped_spans,
                  LATEST_BY(dropped_metrics, __time) AS dropped_metrics,
                  LATEST_BY(advice_errors, __time) AS advice_errors,
                  LATEST_BY(sent_spans, __time) AS sent_spans,
                  LATEST_BY(startup_mode, __time, 32) AS startup_mode,
                  LATEST_BY(observing_since_ms, __time) AS observing_since_ms
                FROM %s GROUP BY service, instance""".formatted(quoted(ds.agents())), List.of());
    }

    /** {@code /api/services}: every agent instance of every service and when it was last heard from. */
    DruidStatement services() {
        return new DruidStatement("SELECT service, instance, MAX(TIMESTAMP_TO_MILLIS(__time)) AS last_seen_ms FROM "
                + quoted(ds.agents()) + " GROUP BY service, instance", List.of());
    }

    /** The spans stored per agent instance (an ingest node's "spans received"). */
    DruidStatement spansPerInstance() {
        return new DruidStatement("SELECT service, instance, COUNT(*) AS spans FROM " + quoted(ds.spans())
                + " GROUP BY service, instance", List.of());
    }

    /** The datasources Druid serves segments of. */
    DruidStatement tables() {
        return new DruidStatement("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'druid'",
                List.of());
    }
}
