package io.argus.collector.storage.druid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.CallMetricSummary;
import io.argus.collector.storage.Histograms;
import io.argus.collector.storage.JvmInstanceMetrics;
import io.argus.collector.storage.JvmInstanceSeries;
import io.argus.collector.storage.JvmMetrics;
import io.argus.collector.storage.JvmPoint;
import io.argus.collector.storage.JvmSeries;
import io.argus.collector.storage.RedPoint;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.RedSeries;
import io.argus.collector.storage.ServiceMap;
import io.argus.collector.storage.ServiceMapEdge;
import io.argus.collector.storage.ServiceSummary;
import io.argus.collector.storage.SpanRecord;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.TraceSearchHit;
import io.argus.collector.storage.TraceSummary;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Druid SQL result rows (JSON objects keyed by column) turned into the query API's shapes. */
final class DruidRows {
    private final ObjectMapper json;

    DruidRows(ObjectMapper json) {
        this.json = json;
    }

    /** The spans of one trace, sorted by start then span id. */
    List<SpanRecord> spans(List<JsonNode> rows) {
        List<SpanRecord> out = new ArrayList<>(rows.size());
        for (JsonNode r : rows) {
            String parent = text(r, "parent_span_id");
            out.add(new SpanRecord(text(r, "span_id"), parent.isEmpty() ? null : parent, text(r, "service"),
                    text(r, "instance"), text(r, "kind"), text(r, "name"), r.path("start_ns").asLong(),
                    r.path("duration_ns").asLong(), text(r, "status"), tags(r.get("tags"))));
        }
        out.sort(Comparator.comparingLong(SpanRecord::startEpochNanos).thenComparing(SpanRecord::spanId));
        return out;
    }

    /** A span's tags: Druid answers a JSON column as an object (or, from some paths, as its JSON text). */
    Map<String, String> tags(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return Collections.emptyMap();
        }
        JsonNode obj = node;
        if (node.isTextual()) {
            if (node.asText().isEmpty()) {
                return Collections.emptyMap();
            }
            try {
                obj = json.readTree(node.asText());
            } catch (IOException e) {
                return Collections.emptyMap();
            }
        }
        Map<String, String> tags = new LinkedHashMap<>();
        obj.fields().forEachRemaining(e -> tags.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText()
                : e.getValue().toString()));
        return tags;
    }

    /** The recent-trace rows: roots newest first (by start nanoseconds), each with its trace's span count. */
    List<TraceSummary> traces(List<JsonNode> roots, List<JsonNode> counts, int limit) {
        Map<String, Long> spanCounts = new HashMap<>();
        for (JsonNode c : counts) {
            spanCounts.put(text(c, "trace_id"), c.path("span_count").asLong());
        }
        List<JsonNode> sorted = new ArrayList<>(roots);
        sorted.sort(Comparator.<JsonNode>comparingLong(r -> r.path("start_ns").asLong()).reversed()
                .thenComparing(r -> text(r, "trace_id")));
        List<TraceSummary> out = new ArrayList<>();
        Map<String, Boolean> seen = new HashMap<>();
        for (JsonNode r : sorted) {
            String id = text(r, "trace_id");
            if (out.size() == limit || seen.put(id, Boolean.TRUE) != null) {
                continue;
            }
            long start = r.path("start_ns").asLong();
            out.add(new TraceSummary(id, text(r, "name"), text(r, "service"), Math.floorDiv(start, 1_000_000L),
                    r.path("duration_ns").asLong() / 1e6, spanCounts.getOrDefault(id, 1L)));
        }
        return out;
    }

    /** The call metric rows, with percentiles from the summed buckets; most calls first, like the embedded store. */
    List<CallMetricSummary> callMetrics(List<JsonNode> rows) {
        List<CallMetricSummary> out = new ArrayList<>(rows.size());
        for (JsonNode r : rows) {
            long count = r.path("count").asLong();
            double min = count > 0 ? r.path("min_ns").asDouble() : 0;
            double max = count > 0 ? r.path("max_ns").asDouble() : 0;
            double avg = count > 0 ? r.path("sum_ns").asDouble() / count : 0;
            out.add(new CallMetricSummary(text(r, "service"), text(r, "kind"), text(r, "method"), text(r, "target"),
                    r.path("status").asInt(), count, r.path("errors").asLong(), ms(avg), ms(min), ms(max),
                    ms(percentile(0.95, r, min, max)), ms(percentile(0.99, r, min, max))));
        }
        out.sort(Comparator.comparingLong(CallMetricSummary::count).reversed()
                .thenComparing(CallMetricSummary::service)
                .thenComparing(CallMetricSummary::kind)
                .thenComparing(CallMetricSummary::method)
                .thenComparing(CallMetricSummary::target)
                .thenComparingInt(CallMetricSummary::status));
        return out;
    }

    /** A quantile, in nanoseconds, of the histogram in a row's summed {@code bucket_NN} columns. */
    private static double percentile(double q, JsonNode row, double min, double max) {
        long[] buckets = new long[DruidDatasources.BUCKETS];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = row.path(DruidDatasources.bucketColumn(i)).asLong();
        }
        return Histograms.percentile(q, DruidDatasources.BUCKET_BOUNDS_NS, buckets, min, max);
    }

    /**
     * A RED series from the per-step rows: one point per step of the range, oldest first, steps without calls as
     * zeros with no percentiles (as the embedded store answers).
     */
    RedSeries red(RedQuery q, List<JsonNode> rows) {
        Map<Long, JsonNode> bySteps = new HashMap<>();
        rows.forEach(r -> bySteps.put(r.path("step_ms").asLong(), r));
        long step = q.stepMs();
        double stepSeconds = step / 1000.0;
        List<RedPoint> points = new ArrayList<>();
        for (long t = q.range().fromMs(); t < q.range().toMs(); t += step) {
            JsonNode r = bySteps.get(t);
            long count = r == null ? 0 : r.path("count").asLong();
            if (count == 0) {
                points.add(new RedPoint(t, 0, 0, 0, 0, null, null, null));
                continue;
            }
            long errors = r.path("errors").asLong();
            double min = r.path("min_ns").asDouble();
            double max = r.path("max_ns").asDouble();
            points.add(new RedPoint(t, count, errors, round(count / stepSeconds, 1000),
                    round((double) errors / count, 10000), ms(percentile(0.50, r, min, max)),
                    ms(percentile(0.95, r, min, max)), ms(percentile(0.99, r, min, max))));
        }
        return new RedSeries(q.service(), q.kind(), q.method(), q.route(), step, points);
    }

    private static double round(double v, int scale) {
        return Math.round(v * scale) / (double) scale;
    }

    /** JVM gauge series from per-step rows: instances and gauges by name, each gauge's points oldest first. */
    JvmSeries jvmSeries(String service, long stepMs, List<JsonNode> rows) {
        Map<String, Map<String, List<JvmPoint>>> byInstance = new TreeMap<>();
        for (JsonNode r : rows) {
            byInstance.computeIfAbsent(text(r, "instance"), k -> new TreeMap<>())
                    .computeIfAbsent(text(r, "name"), k -> new ArrayList<>())
                    .add(new JvmPoint(r.path("step_ms").asLong(), r.path("value").asDouble()));
        }
        List<JvmInstanceSeries> instances = new ArrayList<>();
        byInstance.forEach((instance, series) -> {
            Map<String, List<JvmPoint>> sorted = new LinkedHashMap<>();
            series.forEach((name, points) -> {
                points.sort(Comparator.comparingLong(JvmPoint::tsMs));
                sorted.put(name, points);
            });
            instances.add(new JvmInstanceSeries(instance, sorted));
        });
        return new JvmSeries(service, stepMs, instances);
    }

    /** Trace search hits, in the order Druid sorted them. */
    /**
     * The search's rows, with the span and error counts of {@code counts} (each span once) where it has the trace,
     * else those of the row.
     */
    List<TraceSearchHit> searchHits(List<JsonNode> rows, List<JsonNode> counts) {
        Map<String, JsonNode> distinct = new HashMap<>();
        counts.forEach(c -> distinct.put(text(c, "trace_id"), c));
        List<TraceSearchHit> out = new ArrayList<>(rows.size());
        for (JsonNode r : rows) {
            String id = text(r, "trace_id");
            JsonNode c = distinct.getOrDefault(id, r);
            out.add(new TraceSearchHit(id, text(r, "root_name"), text(r, "root_service"),
                    Math.floorDiv(r.path("root_start_ns").asLong(), 1_000_000L),
                    r.path("root_duration_ns").asLong() / 1e6, c.path("span_count").asLong(),
                    c.path("errors").asLong()));
        }
        return out;
    }

    /** The service map: edges sorted by source and target, nodes as {@link ServiceMap#of} orders them. */
    ServiceMap serviceMap(TimeRange range, List<JsonNode> edgeRows, List<JsonNode> serviceRows) {
        double seconds = range.durationMs() / 1000.0;
        Map<String, String> targetTypes = new HashMap<>();
        List<ServiceMapEdge> edges = new ArrayList<>(edgeRows.size());
        for (JsonNode r : edgeRows) {
            targetTypes.put(text(r, "target"), text(r, "target_type"));
            edges.add(ServiceMapEdge.of(text(r, "source"), text(r, "target"), r.path("calls").asLong(),
                    r.path("errors").asLong(), seconds, r.path("p95_ns").asDouble()));
        }
        edges.sort(Comparator.comparing(ServiceMapEdge::source).thenComparing(ServiceMapEdge::target));
        List<String> services = new ArrayList<>();
        serviceRows.forEach(r -> services.add(text(r, "service")));
        return ServiceMap.of(range, edges, targetTypes, services);
    }

    /** Nanoseconds to milliseconds, rounded to the microsecond (as the embedded store does). */
    private static double ms(double nanos) {
        return Math.round(nanos / 1_000.0) / 1_000.0;
    }

    /** The JVM gauges of a service from its newest samples: per series the last {@code points}, oldest first. */
    JvmMetrics jvm(String service, List<JsonNode> newestFirst, int points) {
        Map<String, Map<String, List<JvmPoint>>> byInstance = new TreeMap<>();
        for (JsonNode r : newestFirst) {
            List<JvmPoint> series = byInstance.computeIfAbsent(text(r, "instance"), k -> new TreeMap<>())
                    .computeIfAbsent(text(r, "name"), k -> new ArrayList<>());
            if (series.size() < points) {
                series.add(new JvmPoint(r.path("ts_ms").asLong(), r.path("value").asDouble()));
            }
        }
        List<JvmInstanceMetrics> instances = new ArrayList<>();
        byInstance.forEach((instance, named) -> {
            Map<String, Double> latest = new LinkedHashMap<>();
            Map<String, List<JvmPoint>> series = new LinkedHashMap<>();
            named.forEach((name, list) -> {
                latest.put(name, list.get(0).value());
                List<JvmPoint> oldestFirst = new ArrayList<>(list);
                Collections.reverse(oldestFirst);
                series.put(name, oldestFirst);
            });
            instances.add(new JvmInstanceMetrics(instance, latest, series));
        });
        return new JvmMetrics(service, instances);
    }

    /**
     * The agents from their session events. An agent counts as connected while its latest event is not a
     * disconnect and is at most {@code connectedWindowMs} old (an ingest collector killed outright sends none).
     */
    List<AgentInfo> agents(List<JsonNode> rows, List<JsonNode> spanCounts, long nowMs, long connectedWindowMs) {
        Map<String, Long> spans = new HashMap<>();
        for (JsonNode c : spanCounts) {
            spans.put(text(c, "service") + '\0' + text(c, "instance"), c.path("spans").asLong());
        }
        List<AgentInfo> out = new ArrayList<>(rows.size());
        for (JsonNode r : rows) {
            String service = text(r, "service");
            String instance = text(r, "instance");
            long lastSeen = r.path("last_seen_ms").asLong();
            boolean connected = !"disconnected".equals(text(r, "last_event"))
                    && nowMs - lastSeen <= connectedWindowMs;
            out.add(new AgentInfo(service, instance, text(r, "agent_version"), text(r, "host"),
                    r.path("pid").asLong(), r.path("start_time_ms").asLong(), text(r, "runtime_version"),
                    r.path("protocol_version").asInt(), text(r, "remote_address"), connected,
                    r.path("connected_at_ms").asLong(), lastSeen, r.path("last_heartbeat_ms").asLong(),
                    r.path("dropped_spans").asLong(), r.path("dropped_metrics").asLong(),
                    r.path("advice_errors").asLong(), r.path("sent_spans").asLong(),
                    spans.getOrDefault(service + '\0' + instance, 0L), text(r, "startup_mode"),
                    r.path("observing_since_ms").asLong()));
        }
        out.sort(Comparator.comparing(AgentInfo::service).thenComparing(AgentInfo::instance));
        return out;
    }

    /** Services sorted by name, each with its sorted instances and the latest contact of any of them. */
    List<ServiceSummary> services(List<JsonNode> rows) {
        Map<String, TreeSet<String>> instances = new TreeMap<>();
        Map<String, Long> lastSeen = new HashMap<>();
        for (JsonNode r : rows) {
            String service = text(r, "service");
            instances.computeIfAbsent(service, k -> new TreeSet<>()).add(text(r, "instance"));
            lastSeen.merge(service, r.path("last_seen_ms").asLong(), Math::max);
        }
        List<ServiceSummary> out = new ArrayList<>(instances.size());
        instances.forEach((service, names) ->
                out.add(new ServiceSummary(service, List.copyOf(names), lastSeen.get(service))));
        return out;
    }

    /** A string column; {@code ""} when null or absent. */
    private static String text(JsonNode row, String column) {
        JsonNode v = row.get(column);
        return v == null || v.isNull() ? "" : v.asText();
    }
}
