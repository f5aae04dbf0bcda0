package io.argus.collector.alerting.eval;

import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.state.DedupKey;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.JvmInstanceSeries;
import io.argus.collector.storage.JvmPoint;
import io.argus.collector.storage.MetricStore;
import io.argus.collector.storage.RedPoint;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.RedSeries;
import io.argus.collector.storage.TimeRange;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a rule's signal through the query interfaces every collector that answers the API has: the RED series
 * and JVM series of {@link MetricStore}, and the agents of {@link AgentDirectory}. The embedded store and the
 * Druid query node answer the same calls, so one evaluator serves both. One instance per evaluator thread.
 */
public final class SignalReader {
    private final MetricStore metrics;
    private final AgentDirectory agents;
    /** Dropped-span counters seen per rule and instance, to turn the agents' running totals into a window's sum. */
    private final Map<String, Map<String, ArrayDeque<long[]>>> droppedSamples = new HashMap<>();

    public SignalReader(MetricStore metrics, AgentDirectory agents) {
        this.metrics = metrics;
        this.agents = agents;
    }

    public Reading read(AlertRule rule, long nowMs) {
        long windowMs = rule.window().toMillis();
        return switch (rule.signal()) {
            case ERROR_RATE, P95_LATENCY, P99_LATENCY, REQUEST_RATE -> calls(rule, nowMs, windowMs);
            case AGENT_SILENT -> silence(rule, nowMs, windowMs);
            case DROPPED_SPANS -> dropped(rule, nowMs, windowMs);
            case JVM_GAUGE -> gauge(rule, nowMs, windowMs);
        };
    }

    /**
     * One RED point covering the whole window: its steps start at the range's start, so a step as long as the
     * range gives the window's exact counts and merged-histogram percentiles. The window ends at the next multiple
     * of the store's resolution (now on the embedded store, the end of the current minute on Druid) so that the
     * newest cells count.
     */
    private Reading calls(AlertRule rule, long nowMs, long windowMs) {
        long resolution = Math.max(1, metrics.callResolutionMs());
        long toMs = Math.floorDiv(nowMs + resolution - 1, resolution) * resolution;
        long span = Math.max(resolution, (windowMs + resolution - 1) / resolution * resolution);
        long fromMs = toMs - span;
        RedSeries series = metrics.redSeries(new RedQuery(rule.service(), rule.kind(), rule.method(), rule.route(),
                new TimeRange(fromMs, toMs), span));
        long requests = 0;
        long errors = 0;
        Double p95 = null;
        Double p99 = null;
        for (RedPoint p : series.points()) {
            requests += p.requests();
            errors += p.errors();
            if (p.requests() > 0) {
                p95 = p95 == null ? p.p95Ms() : Math.max(p95, p.p95Ms());
                p99 = p99 == null ? p.p99Ms() : Math.max(p99, p.p99Ms());
            }
        }
        double value = switch (rule.signal()) {
            case REQUEST_RATE -> requests * 1000.0 / span;
            case ERROR_RATE -> requests < rule.minCalls() ? Double.NaN : (double) errors / requests;
            case P95_LATENCY -> requests < rule.minCalls() || p95 == null ? Double.NaN : p95;
            default -> requests < rule.minCalls() || p99 == null ? Double.NaN : p99;
        };
        return new Reading(value, fromMs, toMs);
    }

    /** Minutes since the newest report of the service's (or the one instance's) agents; NaN when none is known. */
    private Reading silence(AlertRule rule, long nowMs, long windowMs) {
        long lastSeen = -1;
        for (AgentInfo a : agents.agents()) {
            if (matches(rule, a)) {
                lastSeen = Math.max(lastSeen, a.lastSeenMs());
            }
        }
        double minutes = lastSeen < 0 ? Double.NaN : Math.max(0, nowMs - lastSeen) / 60_000.0;
        return new Reading(minutes, nowMs - windowMs, nowMs);
    }

    /**
     * Spans dropped in the window: the growth of each instance's running total between the oldest sample in the
     * window and now (a total that went down is a restarted agent: its new total counts whole).
     */
    private Reading dropped(AlertRule rule, long nowMs, long windowMs) {
        Map<String, ArrayDeque<long[]>> byInstance = droppedSamples.computeIfAbsent(DedupKey.of(rule),
                k -> new HashMap<>());
        long sum = 0;
        boolean any = false;
        for (AgentInfo a : agents.agents()) {
            if (!matches(rule, a)) {
                continue;
            }
            any = true;
            ArrayDeque<long[]> samples = byInstance.computeIfAbsent(a.instance(), k -> new ArrayDeque<>());
            samples.addLast(new long[] {nowMs, a.droppedSpans()});
            while (samples.size() > 1 && samples.peekFirst()[0] < nowMs - windowMs) {
                samples.pollFirst();
            }
            long previous = samples.peekFirst()[1];
            for (long[] s : samples) {
                sum += s[1] >= previous ? s[1] - previous : s[1];
                previous = s[1];
            }
        }
        return new Reading(any ? sum : Double.NaN, nowMs - windowMs, nowMs);
    }

    /** The highest of the instances' latest samples of the gauge in the window; NaN without a sample. */
    private Reading gauge(AlertRule rule, long nowMs, long windowMs) {
        TimeRange range = new TimeRange(nowMs - windowMs, nowMs);
        double max = Double.NaN;
        for (JvmInstanceSeries inst : metrics.jvmSeries(rule.service(), range, windowMs).instances()) {
            if (rule.instance() != null && !rule.instance().equals(inst.instance())) {
                continue;
            }
            List<JvmPoint> points = inst.series().get(rule.gauge());
            if (points != null && !points.isEmpty()) {
                double latest = points.get(points.size() - 1).value();
                max = Double.isNaN(max) ? latest : Math.max(max, latest);
            }
        }
        return new Reading(max, range.fromMs(), range.toMs());
    }

    private static boolean matches(AlertRule rule, AgentInfo a) {
        return rule.service().equals(a.service()) && (rule.instance() == null || rule.instance().equals(a.instance()));
    }

    /** Forgets the samples of rules no longer in force. */
    public void retain(List<AlertRule> rules) {
        droppedSamples.keySet().retainAll(rules.stream().map(DedupKey::of).toList());
    }
}
