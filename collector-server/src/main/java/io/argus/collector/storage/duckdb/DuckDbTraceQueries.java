package io.argus.collector.storage.duckdb;

import io.argus.collector.storage.Ids;
import io.argus.collector.storage.ServiceMap;
import io.argus.collector.storage.ServiceMapEdge;
import io.argus.collector.storage.ServiceMapNode;
import io.argus.collector.storage.TagFilter;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceSearch;
import io.argus.collector.storage.TraceSearchHit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Trace search and the service map, over the spans table. */
final class DuckDbTraceQueries {
    /** How far a server span may start outside the range of its client span (clock skew between hosts). */
    private static final long SKEW_NANOS = 60_000_000_000L;
    private static final String DB_PREFIX = ServiceMapNode.DB_PREFIX;
    private static final String EXTERNAL_PREFIX = ServiceMapNode.EXTERNAL_PREFIX;
    private static final String TOPIC_PREFIX = ServiceMapNode.TOPIC_PREFIX;

    private final Sql sql;

    DuckDbTraceQueries(Sql sql) {
        this.sql = sql;
    }

    /**
     * One row per client or producer span of the range: {@code source} service, {@code target} node id and
     * {@code target_type}, with the span's trace id, duration and status. A producer span's target is its topic;
     * a client span's the service of its server child when one is stored, otherwise a database or an external host
     * named by the span's tags. Then one row per consumer span of a topic: from the topic to the consumer's service.
     */
    private static String edgeSpans(TimeRange range, SqlParams p) {
        String serverWindow = "";
        String clientWindow = "";
        if (range != null) {
            serverWindow = " AND start_epoch_nanos >= " + p.add(range.fromNanos() - SKEW_NANOS)
                    + " AND start_epoch_nanos < " + p.add(range.toNanos() + SKEW_NANOS);
        }
        String dbSystem = "json_extract_string(c.tags, '/db.system')";
        String dbName = "json_extract_string(c.tags, '/db.name')";
        String topic = "'" + TOPIC_PREFIX + "' || json_extract_string(c.tags, '/messaging.system') || '/' || "
                + "json_extract_string(c.tags, '/messaging.destination.name')";
        String isTopic = "c.kind = 'PRODUCER' AND json_extract_string(c.tags, '/messaging.destination.name') IS NOT NULL";
        String dbPeer = "nullif(json_extract_string(c.tags, '/peer'), '')";
        // the node a database's metrics name too (DatabaseNodes): system, then server and database
        String dbNode = "coalesce('/' || " + dbPeer + " || coalesce('/' || " + dbName + ", ''), '/' || " + dbName + ", '')";
        String host = "coalesce(nullif(json_extract_string(c.tags, '/peer'), ''), nullif(regexp_extract("
                + "json_extract_string(c.tags, '/http.url'), '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^/?#@]*@)?([^/?#]+)', 1),"
                + " ''), c.name)";
        StringBuilder s = new StringBuilder("""
                SELECT c.trace_id_high, c.trace_id_low, c.service AS source, c.duration_nanos, c.status,
                """)
                .append("       CASE WHEN ").append(isTopic).append(" THEN ").append(topic).append("\n")
                .append("""
                     WHEN callee.service IS NOT NULL THEN callee.service
                """)
                .append("     WHEN ").append(dbSystem).append(" IS NOT NULL THEN '").append(DB_PREFIX).append("' || ")
                .append(dbSystem).append(" || ").append(dbNode).append("\n")
                .append("     ELSE '").append(EXTERNAL_PREFIX).append("' || ").append(host).append(" END AS target,\n")
                .append("       CASE WHEN ").append(isTopic).append(" THEN 'topic'\n")
                .append("""
                     WHEN callee.service IS NOT NULL THEN 'service'
                """)
                .append("     WHEN ").append(dbSystem).append(" IS NOT NULL THEN 'database' ELSE 'external' END")
                .append(" AS target_type\n")
                .append("""
                FROM spans c LEFT JOIN (
                  SELECT trace_id_high, trace_id_low, parent_span_id, any_value(service) AS service FROM spans
                  WHERE kind IN ('SERVER', 'CONSUMER') AND parent_span_id IS NOT NULL""")
                .append(serverWindow)
                .append("""
                
                  GROUP BY ALL) callee
                  ON callee.trace_id_high = c.trace_id_high AND callee.trace_id_low = c.trace_id_low
                     AND callee.parent_span_id = c.span_id
                WHERE c.kind IN ('CLIENT', 'PRODUCER')""");
        if (range != null) {
            clientWindow = " AND c.start_epoch_nanos >= " + p.add(range.fromNanos())
                    + " AND c.start_epoch_nanos < " + p.add(range.toNanos());
        }
        s.append(clientWindow);
        s.append("\nUNION ALL\nSELECT c.trace_id_high, c.trace_id_low, ").append(topic)
                .append(" AS source, c.duration_nanos, c.status, c.service AS target, 'service' AS target_type\n")
                .append("FROM spans c WHERE c.kind = 'CONSUMER'")
                .append(" AND json_extract_string(c.tags, '/messaging.destination.name') IS NOT NULL");
        if (range != null) {
            s.append(" AND c.start_epoch_nanos >= ").append(p.add(range.fromNanos()))
                    .append(" AND c.start_epoch_nanos < ").append(p.add(range.toNanos()));
        }
        return s.toString();
    }

    ServiceMap serviceMap(TimeRange range) {
        SqlParams p = new SqlParams();
        String text = "WITH e AS (" + edgeSpans(range, p) + ")\n"
                + "SELECT source, target, target_type, count(*), count(*) FILTER (WHERE status = 'ERROR'),"
                + " quantile_cont(duration_nanos, 0.95) FROM e GROUP BY ALL ORDER BY source, target";
        double seconds = range.durationMs() / 1000.0;
        Map<String, String> targetTypes = new HashMap<>();
        List<ServiceMapEdge> edges = sql.query(text, p, rs -> {
            List<ServiceMapEdge> out = new ArrayList<>();
            while (rs.next()) {
                targetTypes.put(rs.getString(2), rs.getString(3));
                out.add(ServiceMapEdge.of(rs.getString(1), rs.getString(2), rs.getLong(4), rs.getLong(5), seconds,
                        rs.getDouble(6)));
            }
            return out;
        });
        SqlParams sp = new SqlParams();
        List<String> services = sql.query("SELECT DISTINCT service FROM spans WHERE start_epoch_nanos >= "
                + sp.add(range.fromNanos()) + " AND start_epoch_nanos < " + sp.add(range.toNanos()), sp, rs -> {
                    List<String> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                    return out;
                });
        return ServiceMap.of(range, edges, targetTypes, services);
    }

    List<TraceSearchHit> search(TraceSearch q) {
        SqlParams p = new SqlParams();
        StringBuilder text = new StringBuilder("WITH ");
        boolean candidates = q.range() != null || q.edge() != null;
        if (q.edge() != null) {
            text.append("e AS (").append(edgeSpans(q.range(), p)).append("),\n");
        }
        if (candidates) {
            text.append("candidates AS (");
            if (q.edge() != null) {
                text.append("SELECT DISTINCT trace_id_high, trace_id_low FROM e WHERE source = ")
                        .append(p.add(q.edge().source())).append(" AND target = ").append(p.add(q.edge().target()));
            } else {
                // a trace whose root started in the range has a span that started in it: the root
                text.append("SELECT DISTINCT trace_id_high, trace_id_low FROM spans WHERE start_epoch_nanos >= ")
                        .append(p.add(q.range().fromNanos())).append(" AND start_epoch_nanos < ")
                        .append(p.add(q.range().toNanos()));
            }
            text.append("),\n");
        }
        // a span stored twice (sent again after a lost acknowledgement) counts once
        text.append("""
                t AS (
                  SELECT trace_id_high AS hi, trace_id_low AS lo, count(DISTINCT span_id) AS span_count,
                         count(DISTINCT span_id) FILTER (WHERE status = 'ERROR') AS errors,
                         arg_min({'name': name, 'service': service, 'start': start_epoch_nanos,
                                  'dur': duration_nanos, 'route': json_extract_string(tags, '/http.route')},
                                 (parent_span_id IS NOT NULL, start_epoch_nanos)) AS root""");
        List<TagFilter> tags = q.tags();
        for (int i = 0; i < tags.size(); i++) {
            text.append(",\n         bool_or(json_extract_string(tags, ")
                    .append(p.add(SqlParams.tagPointer(tags.get(i).key()))).append(") = ")
                    .append(p.add(tags.get(i).value())).append(") AS tag_").append(i);
        }
        text.append("\n  FROM spans");
        if (candidates) {
            text.append(" SEMI JOIN candidates USING (trace_id_high, trace_id_low)");
        }
        text.append(" GROUP BY trace_id_high, trace_id_low)\n")
                .append("SELECT hi, lo, span_count, root.name, root.service, root.start, root.dur, errors FROM t")
                .append(" WHERE root.dur >= ").append(p.add(q.minDurationNanos()));
        if (q.maxDurationNanos() != Long.MAX_VALUE) {
            text.append(" AND root.dur <= ").append(p.add(q.maxDurationNanos()));
        }
        if (q.range() != null) {
            text.append(" AND root.start >= ").append(p.add(q.range().fromNanos()))
                    .append(" AND root.start < ").append(p.add(q.range().toNanos()));
        }
        if (q.service() != null) {
            text.append(" AND root.service = ").append(p.add(q.service()));
        }
        if (q.route() != null) {
            text.append(" AND (root.route = ").append(p.add(q.route())).append(" OR root.name = ")
                    .append(p.add(q.route())).append(" OR ends_with(root.name, ' ' || ").append(p.add(q.route()))
                    .append("))");
        }
        switch (q.status()) {
            case ERROR -> text.append(" AND errors > 0");
            case OK -> text.append(" AND errors = 0");
            default -> {
            }
        }
        for (int i = 0; i < tags.size(); i++) {
            text.append(" AND tag_").append(i);
        }
        text.append(q.sort() == TraceSearch.Sort.DURATION ? " ORDER BY root.dur DESC, root.start DESC"
                : " ORDER BY root.start DESC");
        text.append(", hi, lo LIMIT ").append(p.add(q.limit()));
        return sql.query(text.toString(), p, rs -> {
            List<TraceSearchHit> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new TraceSearchHit(Ids.traceIdHex(rs.getLong(1), rs.getLong(2)), rs.getString(4),
                        rs.getString(5), Math.floorDiv(rs.getLong(6), 1_000_000L), rs.getLong(7) / 1e6,
                        rs.getLong(3), rs.getLong(8)));
            }
            return out;
        });
    }
}
