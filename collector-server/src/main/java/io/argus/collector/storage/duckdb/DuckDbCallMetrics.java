package io.argus.collector.storage.duckdb;

import io.argus.collector.storage.CallMetricSummary;
import io.argus.collector.storage.MergedHistogram;
import io.argus.collector.storage.TimeRange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Call metric cells summed over a range, per service, kind, method, target and status. */
final class DuckDbCallMetrics {
    private final Sql sql;

    DuckDbCallMetrics(Sql sql) {
        this.sql = sql;
    }

    private record Key(String service, String kind, String method, String target, int status) {
    }

    private record Totals(long count, long errors, long sum, long min, long max) {
    }

    List<CallMetricSummary> summaries(String service, String kind, TimeRange range) {
        StringBuilder where = new StringBuilder(" WHERE true");
        SqlParams params = new SqlParams();
        if (service != null) {
            where.append(" AND service = ").append(params.add(service));
        }
        if (kind != null) {
            where.append(" AND kind = ").append(params.add(kind));
        }
        if (range != null) {
            where.append(" AND ts_ms >= ").append(params.add(range.fromMs()))
                    .append(" AND ts_ms < ").append(params.add(range.toMs()));
        }
        Map<Key, Totals> totals = sql.query(
                "SELECT service, kind, method, target, status, sum(count), sum(errors), sum(sum_nanos),"
                        + " min(min_nanos), max(max_nanos) FROM http_metrics" + where
                        + " GROUP BY ALL",
                params, rs -> {
                    Map<Key, Totals> out = new LinkedHashMap<>();
                    while (rs.next()) {
                        out.put(new Key(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                        rs.getInt(5)),
                                new Totals(rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9),
                                        rs.getLong(10)));
                    }
                    return out;
                });
        // merged histogram per key; a NULL bound is the overflow bucket
        Map<Key, MergedHistogram> buckets = sql.query(
                "SELECT service, kind, method, target, status, bound, sum(coalesce(cnt, 0)) FROM (SELECT service,"
                        + " kind, method, target, status, unnest(bucket_bounds) AS bound,"
                        + " unnest(bucket_counts) AS cnt FROM http_metrics" + where + ") GROUP BY ALL",
                params, rs -> {
                    Map<Key, MergedHistogram> out = new LinkedHashMap<>();
                    while (rs.next()) {
                        Key key = new Key(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getInt(5));
                        long bound = rs.getLong(6);
                        Long b = rs.wasNull() ? null : bound;
                        out.computeIfAbsent(key, k -> new MergedHistogram()).add(b, rs.getLong(7));
                    }
                    return out;
                });
        List<CallMetricSummary> out = new ArrayList<>(totals.size());
        totals.forEach((key, t) -> {
            MergedHistogram merged = buckets.getOrDefault(key, new MergedHistogram());
            double min = t.count() > 0 ? t.min() : 0;
            double max = t.count() > 0 ? t.max() : 0;
            out.add(new CallMetricSummary(key.service(), key.kind(), key.method(), key.target(), key.status(),
                    t.count(), t.errors(),
                    ms(t.count() > 0 ? (double) t.sum() / t.count() : 0), ms(min), ms(max),
                    ms(merged.percentile(0.95, min, max)), ms(merged.percentile(0.99, min, max))));
        });
        out.sort(CallMetricSummary.BUSIEST_FIRST);
        return out;
    }

    /** Nanoseconds to milliseconds, rounded to the microsecond. */
    private static double ms(double nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }
}
