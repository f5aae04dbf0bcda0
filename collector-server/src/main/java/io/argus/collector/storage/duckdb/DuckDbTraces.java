package io.argus.collector.storage.duckdb;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.storage.Ids;
import io.argus.collector.storage.SpanRecord;
import io.argus.collector.storage.TraceDetail;
import io.argus.collector.storage.TraceQuery;
import io.argus.collector.storage.TraceSummary;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The recent traces and one trace's spans, over the spans table. */
final class DuckDbTraces {
    private static final Logger LOG = Logger.getLogger(DuckDbTraces.class.getName());
    private static final TypeReference<LinkedHashMap<String, String>> TAGS_TYPE = new TypeReference<>() {
    };

    private static final String TRACE = """
            SELECT span_id, parent_span_id, service, instance, kind, name, start_epoch_nanos,
                   duration_nanos, status, tags
            FROM (SELECT DISTINCT ON (span_id) * FROM spans WHERE trace_id_high = ? AND trace_id_low = ?)
            ORDER BY start_epoch_nanos, span_id""";

    private final Sql sql;
    private final ObjectMapper json = new ObjectMapper();

    DuckDbTraces(Sql sql) {
        this.sql = sql;
    }

    /**
     * Recent traces. A full aggregation over every span would cost a scan of the whole table, so the query
     * first finds the start time {@code t} of the {@code limit}-th newest matching root span: every trace in the
     * answer has its root (or, without a root, all its spans) at or after {@code t}. Only traces with a span
     * from {@code t} on are then aggregated, over all of their spans. With fewer matching roots than
     * {@code limit} (or if trace ids repeat among the roots) it falls back to aggregating everything.
     */
    List<TraceSummary> recent(TraceQuery q) {
        StringBuilder rootFilter = new StringBuilder(" WHERE parent_span_id IS NULL AND duration_nanos >= ?");
        if (q.service() != null) {
            rootFilter.append(" AND service = ?");
        }
        Long since = sql.query("SELECT count(*), min(start_epoch_nanos) FROM (SELECT start_epoch_nanos FROM spans"
                + rootFilter + " ORDER BY start_epoch_nanos DESC LIMIT ?)", ps -> {
            int i = 1;
            ps.setLong(i++, q.minDurationNanos());
            if (q.service() != null) {
                ps.setString(i++, q.service());
            }
            ps.setInt(i, q.limit());
        }, rs -> rs.next() && rs.getLong(1) >= q.limit() ? rs.getLong(2) : null);
        if (since != null) {
            List<TraceSummary> recent = recent(q, since);
            if (recent.size() == q.limit()) {
                return recent;
            }
        }
        return recent(q, null);
    }

    private List<TraceSummary> recent(TraceQuery q, Long since) {
        StringBuilder text = new StringBuilder("WITH ");
        if (since != null) {
            text.append("""
                    candidates AS (
                      SELECT DISTINCT trace_id_high, trace_id_low FROM spans WHERE start_epoch_nanos >= ?),
                    """);
        }
        // a span stored twice (an agent sent again what a lost collector had not acknowledged) counts once
        text.append("""
                t AS (
                  SELECT trace_id_high AS hi, trace_id_low AS lo, count(DISTINCT span_id) AS span_count,
                         arg_min({'name': name, 'service': service, 'start': start_epoch_nanos,
                                  'dur': duration_nanos},
                                 (parent_span_id IS NOT NULL, start_epoch_nanos)) AS root
                  FROM spans""");
        if (since != null) {
            text.append(" SEMI JOIN candidates USING (trace_id_high, trace_id_low)");
        }
        text.append("""
                 GROUP BY trace_id_high, trace_id_low)
                SELECT hi, lo, span_count, root.name, root.service, root.start, root.dur FROM t
                WHERE root.dur >= ?""");
        if (q.service() != null) {
            text.append(" AND root.service = ?");
        }
        text.append(" ORDER BY root.start DESC, hi, lo LIMIT ?");
        return sql.query(text.toString(), ps -> {
            int i = 1;
            if (since != null) {
                ps.setLong(i++, since);
            }
            ps.setLong(i++, q.minDurationNanos());
            if (q.service() != null) {
                ps.setString(i++, q.service());
            }
            ps.setInt(i, q.limit());
        }, rs -> {
            List<TraceSummary> out = new ArrayList<>();
            while (rs.next()) {
                out.add(new TraceSummary(
                        Ids.traceIdHex(rs.getLong(1), rs.getLong(2)),
                        rs.getString(4),
                        rs.getString(5),
                        Math.floorDiv(rs.getLong(6), 1_000_000L),
                        rs.getLong(7) / 1e6,
                        rs.getLong(3)));
            }
            return out;
        });
    }

    /** Each span once, also one stored twice (sent again after a lost acknowledgement). */
    Optional<TraceDetail> trace(long high, long low) {
        List<SpanRecord> spans = sql.query(TRACE, ps -> {
            ps.setLong(1, high);
            ps.setLong(2, low);
        }, rs -> {
            List<SpanRecord> out = new ArrayList<>();
            while (rs.next()) {
                long parent = rs.getLong(2);
                boolean root = rs.wasNull();
                out.add(new SpanRecord(
                        Ids.spanIdHex(rs.getLong(1)),
                        root ? null : Ids.spanIdHex(parent),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getString(6),
                        rs.getLong(7),
                        rs.getLong(8),
                        rs.getString(9),
                        tags(rs.getString(10))));
            }
            return out;
        });
        return spans.isEmpty() ? Optional.empty() : Optional.of(new TraceDetail(Ids.traceIdHex(high, low), spans));
    }

    private Map<String, String> tags(String text) {
        if (text == null || text.isEmpty()) {
            return Collections.emptyMap();
        }
        try {
            return json.readValue(text, TAGS_TYPE);
        } catch (IOException e) {
            LOG.log(Level.FINE, "unreadable tags " + text, e);
            return Collections.emptyMap();
        }
    }
}
