package io.argus.perf.load.stats;

import io.argus.perf.harness.stats.MannWhitney;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Comparison;
import io.argus.perf.load.model.RunResults.MetricComparison;
import io.argus.perf.load.model.RunResults.ProcessResources;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;

import java.util.ArrayList;
import java.util.List;

/**
 * Compares every scenario with the baseline: per metric the median with its 95% order-statistic
 * confidence interval, the ratio of medians, the two-sided Mann-Whitney U p-value, Cohen's d,
 * Tukey outliers and, where anchors.md has one, the verdict.
 *
 * <p>Verdicts: PASS when the ratio meets the target; FAIL when it misses and the difference is
 * significant (p &lt; 0.05); INCONCLUSIVE when it misses but the samples cannot tell the two apart
 * (more launches or rounds needed); n/a without a target.
 */
public final class Analysis {

    public static final double ALPHA = 0.05;
    public static final double CONFIDENCE = 0.95;

    /** Metric name, unit, higher-is-better, description: the repeated-sample metrics compared. */
    public record Metric(String name, String unit, boolean higherIsBetter, String label) {
    }

    public static final List<Metric> METRICS = List.of(
            new Metric("startupMs", "ms", false, "startup, spawn to first response (sum over processes)"),
            new Metric("startedLogMs", "ms", false, "startup, 'Started @' log values (sum over processes)"),
            new Metric("qps", "req/s", true, "closed-loop QPS per measured round"),
            new Metric("avgMs", "ms", false, "closed-loop average latency per round"),
            new Metric("p95Ms", "ms", false, "closed-loop P95 per round"),
            new Metric("p99Ms", "ms", false, "closed-loop P99 per round"),
            new Metric("errorRate", "%", false, "closed-loop errors per round"));

    /** Single-value metrics (one figure per scenario): ratio only. */
    public static final List<Metric> SINGLE = List.of(
            new Metric("gatlingQps", "req/s", true, "Gatling throughput"),
            new Metric("gatlingP95Ms", "ms", false, "Gatling P95"),
            new Metric("gatlingP99Ms", "ms", false, "Gatling P99"),
            new Metric("cpuUsPerRequest", "µs", false, "CPU time per request, all target processes"),
            new Metric("peakRssMb", "MB", false, "peak RSS, all target processes"),
            new Metric("heapAfterGcMb", "MB", false, "heap after full GC, all target processes"),
            new Metric("threads", "", false, "threads, all target processes"));

    private Analysis() {
    }

    public static List<Comparison> compare(RunResults results) {
        List<Comparison> out = new ArrayList<>();
        ScenarioResult base = results.scenario("baseline");
        if (base == null) {
            return out;
        }
        for (ScenarioResult s : results.scenarios) {
            if (s == base) {
                continue;
            }
            Comparison c = new Comparison();
            c.scenario = s.name;
            for (Metric m : METRICS) {
                double[] x = samples(s, m.name());
                double[] y = samples(base, m.name());
                if (x.length == 0 || y.length == 0) {
                    continue;
                }
                c.metrics.add(compare(m, x, y, Anchors.limit(s.name, m.name(), results.settings.endpoint)));
            }
            for (Metric m : SINGLE) {
                Double x = single(s, m.name());
                Double y = single(base, m.name());
                if (x == null || y == null) {
                    continue;
                }
                MetricComparison mc = new MetricComparison();
                mc.metric = m.name();
                mc.unit = m.unit();
                mc.higherIsBetter = m.higherIsBetter();
                mc.n = 1;
                mc.baselineN = 1;
                mc.median = x;
                mc.baselineMedian = y;
                mc.ratio = y == 0 ? null : finite(x / y);
                mc.verdict = "n/a";
                c.metrics.add(mc);
            }
            out.add(c);
        }
        return out;
    }

    /** One metric of one scenario against the baseline. */
    public static MetricComparison compare(Metric m, double[] x, double[] baseline, Anchors.Limit limit) {
        MetricComparison mc = new MetricComparison();
        mc.metric = m.name();
        mc.unit = m.unit();
        mc.higherIsBetter = m.higherIsBetter();
        mc.n = x.length;
        mc.baselineN = baseline.length;
        Stats.Interval ci = Stats.medianConfidenceInterval(x, CONFIDENCE);
        mc.median = ci.estimate();
        mc.ciLow = ci.low();
        mc.ciHigh = ci.high();
        mc.ciCoverage = ci.coverage();
        mc.baselineMedian = Stats.median(baseline);
        mc.ratio = mc.baselineMedian == 0 ? null : finite(mc.median / mc.baselineMedian);
        MannWhitney.Result mw = MannWhitney.test(x, baseline);
        mc.mannWhitneyU = mw.u();
        mc.pValue = mw.pValue();
        mc.pMethod = mw.method();
        mc.cohensD = finite(Stats.cohensD(x, baseline));
        mc.outliers = Stats.tukeyOutliers(x, 1.5);
        mc.baselineOutliers = Stats.tukeyOutliers(baseline, 1.5);
        if (limit == null) {
            mc.verdict = "n/a";
        } else {
            mc.target = limit.describe();
            if (mc.ratio == null) {
                mc.verdict = "n/a";
            } else if (limit.passes(mc.ratio)) {
                mc.verdict = "PASS";
            } else {
                mc.verdict = mc.pValue < ALPHA ? "FAIL" : "INCONCLUSIVE";
            }
        }
        return mc;
    }

    /** The repeated samples of a metric: one per startup launch, or one per measured round. */
    public static double[] samples(ScenarioResult s, String metric) {
        List<Double> v = new ArrayList<>();
        switch (metric) {
            case "startupMs" -> {
                for (StartupLaunch l : s.startup) {
                    if (l.error == null && !l.processes.isEmpty()) {
                        v.add(l.totalReadyMs);
                    }
                }
            }
            case "startedLogMs" -> {
                for (StartupLaunch l : s.startup) {
                    if (l.error == null && l.totalStartedLogMs != null) {
                        v.add(l.totalStartedLogMs);
                    }
                }
            }
            default -> {
                if (s.closedLoop != null) {
                    for (Round r : s.closedLoop.rounds) {
                        if (r.discarded) {
                            continue;
                        }
                        switch (metric) {
                            case "qps" -> v.add(r.qps);
                            case "avgMs" -> v.add(r.avgMs);
                            case "p95Ms" -> v.add(r.p95Ms);
                            case "p99Ms" -> v.add(r.p99Ms);
                            case "errorRate" -> v.add(r.requests == 0 ? 0 : 100.0 * r.errors / r.requests);
                            default -> throw new IllegalArgumentException("unknown metric " + metric);
                        }
                    }
                }
            }
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** The single figure of a metric for a scenario, or null. */
    public static Double single(ScenarioResult s, String metric) {
        switch (metric) {
            case "gatlingQps":
                return s.gatling == null || s.gatling.source == null ? null : s.gatling.qps;
            case "gatlingP95Ms":
                return s.gatling == null || s.gatling.source == null ? null : s.gatling.p95Ms;
            case "gatlingP99Ms":
                return s.gatling == null || s.gatling.source == null ? null : s.gatling.p99Ms;
            default:
                break;
        }
        if (s.resources.isEmpty()) {
            return null;
        }
        double sum = 0;
        for (ProcessResources r : s.resources) {
            switch (metric) {
                case "cpuUsPerRequest" -> {
                    if (r.measuredRequests == 0) {
                        return null;
                    }
                    sum += r.cpuUsPerRequest;
                }
                case "peakRssMb" -> sum += r.vmHwmKb / 1024.0;
                case "heapAfterGcMb" -> {
                    if (r.heapUsedAfterGcKb == null) {
                        return null;
                    }
                    sum += r.heapUsedAfterGcKb / 1024.0;
                }
                case "threads" -> sum += r.threads;
                default -> throw new IllegalArgumentException("unknown metric " + metric);
            }
        }
        return sum;
    }

    static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
