package io.argus.collector.storage.druid;

import io.argus.collector.storage.TraceQuery;
import java.util.ArrayList;
import java.util.List;

/**
 * The Druid SQL behind each query endpoint. Every value is a dynamic parameter; datasource names are quoted
 * identifiers (the prefix is restricted to letters, digits, '_', '.' and '-').
 */
final class DruidQueries {
    /** Rows the JVM series query reads at most, whatever the number of series. */
    static final int MAX_JVM_ROWS = 100_000;

    private final DruidDatasources ds;

    DruidQueries(DruidDatasources ds) {
        this.ds = ds;
    }

    private static String quoted(String identifier) {
        return '"' + identifier + '"';
    }

    /** {@code /api/traces/{id}}: every span of one trace (sorted by start afterwards). */
    DruidStatement trace(String traceIdHex) {
        return new DruidStatement("SELECT span_id, parent_span_id, service, instance, kind, name, start_ns, duration_ns,"
                + " status, tags FROM " + quoted(ds.spans()) + " WHERE trace_id = ?", List.of(traceIdHex));
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

    /** {@code /api/traces}, step two: the span count of each listed trace. */
    DruidStatement spanCounts(List<String> traceIds) {
        String marks = String.join(", ", java.util.Collections.nCopies(traceIds.size(), "?"));
        return new DruidStatement("SELECT trace_id, COUNT(*) AS span_count FROM " + quoted(ds.spans())
                + " WHERE trace_id IN (" + marks + ") GROUP BY trace_id", new ArrayList<>(traceIds));
    }

    /**
     * {@code /api/metrics/http}: the rolled-up cells summed per (service, kind, method, target, status), with the
     * summed histogram buckets for the percentiles.
     */
    DruidStatement callMetrics(String service, String kind) {
        // METHOD is a reserved word of Druid's SQL parser: every dimension is quoted
        StringBuilder sql = new StringBuilder("SELECT service, kind, \"method\", target, status,"
                + " SUM(\"count\") AS \"count\","
                + " SUM(errors) AS errors, SUM(sum_ns) AS sum_ns, MIN(min_ns) AS min_ns, MAX(max_ns) AS max_ns");
        for (int i = 0; i < DruidDatasources.BUCKETS; i++) {
            String col = DruidDatasources.bucketColumn(i);
            sql.append(", SUM(").append(col).append(") AS ").append(col);
        }
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
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        sql.append(" GROUP BY service, kind, \"method\", target, status");
        return new DruidStatement(sql.toString(), params);
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
                  LATEST_BY(sent_spans, __time) AS sent_spans
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
