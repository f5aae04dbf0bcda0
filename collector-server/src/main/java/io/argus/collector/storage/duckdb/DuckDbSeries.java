package io.argus.collector.storage.duckdb;

import io.argus.collector.storage.JvmInstanceSeries;
import io.argus.collector.storage.JvmPoint;
import io.argus.collector.storage.JvmSeries;
import io.argus.collector.storage.MergedHistogram;
import io.argus.collector.storage.RedPoint;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.RedSeries;
import io.argus.collector.storage.TimeRange;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Time series over the metric tables: RED from call metric cells, JVM gauges per instance. */
final class DuckDbSeries {
    private final Sql sql;

    DuckDbSeries(Sql sql) {
        this.sql = sql;
    }

    private record StepTotals(long count, long errors, long minNanos, long maxNanos) {
    }

    RedSeries red(RedQuery q) {
        long step = q.stepMs();
        String stepStart = stepStart(q);
        Map<Long, StepTotals> totals = sql.query(
                "SELECT " + stepStart + " AS step_ms, sum(count), sum(errors), min(min_nanos),"
                        + " max(max_nanos) FROM http_metrics WHERE " + cellFilter(q, new SqlParams()) + " GROUP BY ALL",
                params(q), rs -> {
                    Map<Long, StepTotals> out = new HashMap<>();
                    while (rs.next()) {
                        out.put(rs.getLong(1), new StepTotals(rs.getLong(2), rs.getLong(3), rs.getLong(4),
                                rs.getLong(5)));
                    }
                    return out;
                });
        Map<Long, MergedHistogram> histograms = sql.query(
                "SELECT step_ms, bound, sum(coalesce(cnt, 0)) FROM (SELECT " + stepStart
                        + " AS step_ms, unnest(bucket_bounds) AS bound, unnest(bucket_counts) AS cnt"
                        + " FROM http_metrics WHERE " + cellFilter(q, new SqlParams()) + ") GROUP BY ALL",
                params(q), rs -> {
                    Map<Long, MergedHistogram> out = new HashMap<>();
                    while (rs.next()) {
                        long bound = rs.getLong(2);
                        Long b = rs.wasNull() ? null : bound;
                        out.computeIfAbsent(rs.getLong(1), k -> new MergedHistogram()).add(b, rs.getLong(3));
                    }
                    return out;
                });
        double stepSeconds = step / 1000.0;
        List<RedPoint> points = new ArrayList<>();
        for (long t = q.range().fromMs(); t < q.range().toMs(); t += step) {
            StepTotals s = totals.get(t);
            if (s == null || s.count() == 0) {
                points.add(new RedPoint(t, 0, 0, 0, 0, null, null, null));
                continue;
            }
            MergedHistogram h = histograms.getOrDefault(t, new MergedHistogram());
            double min = s.minNanos();
            double max = s.maxNanos();
            points.add(new RedPoint(t, s.count(), s.errors(), round(s.count() / stepSeconds, 1000),
                    round((double) s.errors() / s.count(), 10000), ms(h.percentile(0.50, min, max)),
                    ms(h.percentile(0.95, min, max)), ms(h.percentile(0.99, min, max))));
        }
        return new RedSeries(q.service(), q.kind(), q.method(), q.route(), step, points);
    }

    /** The start of the step a cell falls in: steps start at the range's start (both are plain numbers). */
    private static String stepStart(RedQuery q) {
        long from = q.range().fromMs();
        return "(ts_ms - " + from + ") // " + q.stepMs() + " * " + q.stepMs() + " + " + from;
    }

    private static String cellFilter(RedQuery q, SqlParams p) {
        StringBuilder where = new StringBuilder("service = ").append(p.add(q.service()))
                .append(" AND kind = ").append(p.add(q.kind()))
                .append(" AND ts_ms >= ").append(p.add(q.range().fromMs()))
                .append(" AND ts_ms < ").append(p.add(q.range().toMs()));
        if (q.method() != null) {
            where.append(" AND method = ").append(p.add(q.method()));
        }
        if (q.route() != null) {
            where.append(" AND target = ").append(p.add(q.route()));
        }
        return where.toString();
    }

    private static SqlParams params(RedQuery q) {
        SqlParams p = new SqlParams();
        cellFilter(q, p);
        return p;
    }

    JvmSeries jvm(String service, TimeRange range, long step) {
        SqlParams p = new SqlParams();
        String text = "SELECT instance, name, ts_ms // " + step + " * " + step + " AS step_ms, arg_max(value, ts_ms)"
                + " FROM jvm_gauges WHERE service = " + p.add(service) + " AND ts_ms >= " + p.add(range.fromMs())
                + " AND ts_ms < " + p.add(range.toMs()) + " AND NOT isnan(value)"
                + " GROUP BY ALL ORDER BY instance, name, step_ms";
        Map<String, Map<String, List<JvmPoint>>> byInstance = sql.query(text, p, DuckDbSeries::gaugesByInstance);
        List<JvmInstanceSeries> instances = new ArrayList<>();
        byInstance.forEach((instance, series) -> instances.add(new JvmInstanceSeries(instance, series)));
        return new JvmSeries(service, step, instances);
    }

    /** Rows of (instance, name, ts_ms, value), ordered by instance, name and time, as instance -> gauge -> points. */
    static Map<String, Map<String, List<JvmPoint>>> gaugesByInstance(ResultSet rs) throws SQLException {
        Map<String, Map<String, List<JvmPoint>>> out = new LinkedHashMap<>();
        while (rs.next()) {
            out.computeIfAbsent(rs.getString(1), k -> new LinkedHashMap<>())
                    .computeIfAbsent(rs.getString(2), k -> new ArrayList<>())
                    .add(new JvmPoint(rs.getLong(3), rs.getDouble(4)));
        }
        return out;
    }

    private static Double ms(double nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    private static double round(double v, int scale) {
        return Math.round(v * scale) / (double) scale;
    }
}
