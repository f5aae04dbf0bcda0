package io.argus.collector.otlp;

import io.argus.collector.storage.Source;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.MetricBatch;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OTLP metrics to what the collector stores, per resource (= source):
 * <ul>
 *   <li>JVM gauges and sums of the OpenTelemetry semantic conventions under the Argus agent's names
 *       ({@code jvm.memory.used} by {@code jvm.memory.type} → {@code jvm.heap.used} / {@code jvm.nonheap.used},
 *       {@code jvm.thread.count} → {@code jvm.threads.live}, ...), other {@code jvm.*} gauges and sums under their
 *       own name, data points summed over their attributes;</li>
 *   <li>{@code http.server.request.duration} and {@code http.client.request.duration} histograms (and the older
 *       {@code http.server.duration} / {@code http.client.duration} in ms) as server and client call metrics.
 *       Cumulative histograms are turned into deltas against the previous point of the same series.</li>
 * </ul>
 * Everything else is counted as ignored. Malformed histogram points are refused (partial success).
 */
final class MetricMapper {
    /** Cumulative series remembered for deltas; past this the memory is dropped (the next points count whole). */
    static final int MAX_SERIES = 100_000;

    private final ConcurrentHashMap<String, long[]> previous = new ConcurrentHashMap<>();

    private record Histogram(CallMetricKind kind, double nanosPerUnit) {
    }

    private static final Map<String, Histogram> HISTOGRAMS = Map.of(
            "http.server.request.duration", new Histogram(CallMetricKind.CALL_METRIC_KIND_SERVER, 1e9),
            "http.client.request.duration", new Histogram(CallMetricKind.CALL_METRIC_KIND_CLIENT, 1e9),
            "http.server.duration", new Histogram(CallMetricKind.CALL_METRIC_KIND_SERVER, 1e6),
            "http.client.duration", new Histogram(CallMetricKind.CALL_METRIC_KIND_CLIENT, 1e6));

    Mapped map(ExportMetricsServiceRequest request, String clientHost, long nowMs) {
        Mapped out = new Mapped();
        for (ResourceMetrics rm : request.getResourceMetricsList()) {
            OtlpSources.Sender sender = OtlpSources.sender(rm.getResource(), clientHost);
            Map<String, Double> gauges = new TreeMap<>();
            Map<List<Long>, MetricBatch.Builder> calls = new LinkedHashMap<>();
            for (ScopeMetrics sm : rm.getScopeMetricsList()) {
                for (Metric m : sm.getMetricsList()) {
                    switch (m.getDataCase()) {
                        case GAUGE -> numbers(m.getName(), m.getGauge().getDataPointsList(), gauges, out);
                        case SUM -> numbers(m.getName(), m.getSum().getDataPointsList(), gauges, out);
                        case HISTOGRAM -> histograms(sender.source(), m, calls, out, nowMs);
                        case EXPONENTIAL_HISTOGRAM -> out.ignored += m.getExponentialHistogram().getDataPointsCount();
                        case SUMMARY -> out.ignored += m.getSummary().getDataPointsCount();
                        default -> {
                            // no data
                        }
                    }
                }
            }
            out.senders.merge(sender, 0, Integer::sum);
            if (!gauges.isEmpty()) {
                MetricBatch.Builder b = MetricBatch.newBuilder().setTimestampMs(nowMs);
                gauges.forEach((name, value) -> b.addJvm(Gauge.newBuilder().setName(name).setValue(value)));
                out.offers.add(new Mapped.Offer(sender.source(), null, b.build()));
            }
            for (MetricBatch.Builder b : calls.values()) {
                out.offers.add(new Mapped.Offer(sender.source(), null, b.build()));
            }
        }
        if (previous.size() > MAX_SERIES) {
            previous.clear();
        }
        return out;
    }

    // ------------------------------------------------------------ gauges and sums

    private static void numbers(String name, List<NumberDataPoint> points, Map<String, Double> gauges, Mapped out) {
        if (!name.startsWith("jvm.")) {
            out.ignored += points.size();
            return;
        }
        for (NumberDataPoint p : points) {
            double v = p.getValueCase() == NumberDataPoint.ValueCase.AS_INT ? p.getAsInt() : p.getAsDouble();
            String target = jvmName(name, p.getAttributesList());
            if (target == null || !Double.isFinite(v)) {
                out.ignored++;
                continue;
            }
            if (name.equals("jvm.cpu.time")) {
                v *= 1000; // seconds to the agent's milliseconds
            }
            gauges.merge(target, v, Double::sum);
            out.accepted++;
            if (name.equals("jvm.thread.count") && "true".equals(OtlpValues.get(p.getAttributesList(),
                    "jvm.thread.daemon"))) {
                gauges.merge("jvm.threads.daemon", v, Double::sum);
            }
        }
    }

    /** The Argus agent's gauge name for a semantic-convention JVM metric, or {@code null} to skip the point. */
    private static String jvmName(String name, List<KeyValue> attrs) {
        String memoryType = OtlpValues.get(attrs, "jvm.memory.type");
        String area = "heap".equals(memoryType) ? "jvm.heap." : "non_heap".equals(memoryType) ? "jvm.nonheap." : null;
        return switch (name) {
            case "jvm.memory.used" -> area == null ? null : area + "used";
            case "jvm.memory.committed" -> area == null ? null : area + "committed";
            case "jvm.memory.limit" -> "jvm.heap.".equals(area) ? "jvm.heap.max" : null;
            case "jvm.thread.count" -> "jvm.threads.live";
            case "jvm.class.count" -> "jvm.classes.loaded";
            case "jvm.class.unloaded" -> "jvm.classes.unloaded";
            case "jvm.cpu.count" -> "jvm.cpu.count";
            case "jvm.cpu.recent_utilization" -> "jvm.cpu.process_load";
            case "jvm.cpu.time" -> "jvm.cpu.process_time_ms";
            case "jvm.system.cpu.load_1m" -> "jvm.system.load_average";
            default -> name;
        };
    }

    // ------------------------------------------------------------ histograms

    private void histograms(Source source, Metric m, Map<List<Long>, MetricBatch.Builder> calls, Mapped out,
                            long nowMs) {
        Histogram h = HISTOGRAMS.get(m.getName());
        if (h == null) {
            out.ignored += m.getHistogram().getDataPointsCount();
            return;
        }
        double scale = switch (m.getUnit()) {
            case "s" -> 1e9;
            case "ms" -> 1e6;
            case "us" -> 1e3;
            case "ns" -> 1;
            default -> h.nanosPerUnit();
        };
        boolean cumulative = m.getHistogram().getAggregationTemporality()
                == AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE;
        for (HistogramDataPoint p : m.getHistogram().getDataPointsList()) {
            String invalid = invalid(p);
            if (invalid != null) {
                out.reject(m.getName() + " point " + invalid);
                continue;
            }
            CallMetric cell = cell(h.kind(), p, scale, cumulative ? seriesKey(source, m.getName(), p) : null);
            out.accepted++;
            if (cell == null) {
                continue;
            }
            List<Long> bounds = new ArrayList<>(p.getExplicitBoundsCount());
            for (double b : p.getExplicitBoundsList()) {
                bounds.add(Math.round(b * scale));
            }
            calls.computeIfAbsent(bounds, k -> MetricBatch.newBuilder().setTimestampMs(nowMs)
                    .addAllBucketBoundsNanos(k)).addCalls(cell);
        }
    }

    private static String invalid(HistogramDataPoint p) {
        int bounds = p.getExplicitBoundsCount();
        if (p.getBucketCountsCount() != 0 && p.getBucketCountsCount() != bounds + 1) {
            return "has " + p.getBucketCountsCount() + " bucket counts for " + bounds + " bounds";
        }
        if (bounds > 1_000) {
            return "has more than 1000 buckets";
        }
        double prev = Double.NEGATIVE_INFINITY;
        for (double b : p.getExplicitBoundsList()) {
            if (!(b > prev) || b < 0 || !Double.isFinite(b)) {
                return "has bounds that are not increasing, finite and non-negative";
            }
            prev = b;
        }
        if (p.getCount() < 0) {
            return "has a count beyond 2^63";
        }
        for (long c : p.getBucketCountsList()) {
            if (c < 0) {
                return "has a bucket count beyond 2^63";
            }
        }
        return null;
    }

    /** The cell of one point, as a delta; {@code null} when nothing happened since the previous point. */
    private CallMetric cell(CallMetricKind kind, HistogramDataPoint p, double scale, String series) {
        List<KeyValue> a = p.getAttributesList();
        long[] now = new long[2 + p.getBucketCountsCount()];
        now[0] = p.getCount();
        now[1] = Math.round(p.getSum() * scale);
        for (int i = 0; i < p.getBucketCountsCount(); i++) {
            now[2 + i] = p.getBucketCounts(i);
        }
        long[] delta = now;
        if (series != null) {
            long[] before = previous.put(series + '@' + p.getStartTimeUnixNano(), now);
            if (before != null && before.length == now.length && before[0] <= now[0]) {
                delta = new long[now.length];
                for (int i = 0; i < now.length; i++) {
                    delta[i] = Math.max(0, now[i] - before[i]);
                }
            }
        }
        if (delta[0] == 0) {
            return null;
        }
        String method = OtlpValues.first(a, "http.request.method", "http.method");
        int status = 0;
        String code = OtlpValues.first(a, "http.response.status_code", "http.status_code");
        if (code != null) {
            try {
                status = Math.max(0, Math.min(999, Integer.parseInt(code)));
            } catch (NumberFormatException ignored) {
                // stays 0
            }
        }
        String target;
        boolean failed;
        if (kind == CallMetricKind.CALL_METRIC_KIND_SERVER) {
            target = OtlpValues.first(a, "http.route", "url.path", "http.target");
            failed = status >= 500;
        } else {
            String host = OtlpValues.first(a, "server.address", "net.peer.name");
            String port = OtlpValues.first(a, "server.port", "net.peer.port");
            target = host == null ? null : port == null ? host : host + ":" + port;
            failed = status >= 400 || OtlpValues.get(a, "error.type") != null;
        }
        // min and max: exact for delta points that carry them, else the edges of the outer non-empty buckets
        long min = -1;
        long max = 0;
        for (int i = 2; i < delta.length; i++) {
            if (delta[i] > 0) {
                long lower = i == 2 ? 0 : Math.round(p.getExplicitBounds(i - 3) * scale);
                long upper = i - 2 < p.getExplicitBoundsCount() ? Math.round(p.getExplicitBounds(i - 2) * scale)
                        : Math.max(lower, delta[1] / delta[0]);
                min = min < 0 ? lower : min;
                max = upper;
            }
        }
        if (series == null && p.hasMin() && p.hasMax()) {
            min = Math.round(p.getMin() * scale);
            max = Math.round(p.getMax() * scale);
        }
        min = Math.max(0, min);
        max = Math.max(min, max);
        CallMetric.Builder c = CallMetric.newBuilder().setKind(kind)
                .setMethod(TraceMapper.cut(method == null ? "_OTHER" : method, OtlpSources.MAX_NAME_CHARS))
                .setTarget(TraceMapper.cut(target == null ? "" : target, TraceMapper.MAX_TARGET_CHARS))
                .setStatus(status).setCount(delta[0]).setErrors(failed ? delta[0] : 0)
                .setSumNanos(Math.max(0, delta[1])).setMinNanos(min).setMaxNanos(max);
        for (int i = 2; i < delta.length; i++) {
            c.addBucketCounts(delta[i]);
        }
        return c.build();
    }

    private static String seriesKey(Source source, String metric, HistogramDataPoint p) {
        StringBuilder b = new StringBuilder(source.toString()).append('|').append(metric);
        p.getAttributesList().stream().map(kv -> kv.getKey() + "=" + OtlpValues.text(kv.getValue())).sorted()
                .forEach(s -> b.append('|').append(s));
        return b.toString();
    }
}
