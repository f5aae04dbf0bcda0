package io.argus.perf.load.stats;

import io.argus.perf.harness.stats.HodgesLehmann;
import io.argus.perf.harness.stats.MannWhitney;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Comparison;
import io.argus.perf.load.model.RunResults.MetricComparison;
import io.argus.perf.load.model.RunResults.ProcessResources;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares every scenario with the baseline: per metric the median with its 95% order-statistic
 * confidence interval, the ratio of medians, the Hodges-Lehmann ratio and difference with their 95%
 * intervals, the two-sided Mann-Whitney U p-value, Cohen's d, Tukey outliers and, where anchors.md
 * has a target, the verdict ({@link NonInferiority}: PASS only when the whole interval is on the good
 * side of the target).
 *
 * <p>Metrics are repeated samples (one per launch, or one per measured round) or single figures
 * (one per scenario: Gatling, memory), which get a ratio only. A metric name with
 * {@code .<process>} is that process's figure; without, the sum over the processes.
 */
public final class Analysis {

    public static final double ALPHA = 0.05;
    public static final double CONFIDENCE = 0.95;

    /** Metric name, unit, higher-is-better, description, and whether its samples are launches (else rounds). */
    public record Metric(String name, String unit, boolean higherIsBetter, String label, boolean perLaunch) {
        public Metric(String name, String unit, boolean higherIsBetter, String label) {
            this(name, unit, higherIsBetter, label, false);
        }
    }

    public static final Metric STARTUP = new Metric("startupMs", "ms", false,
            "start-up, spawn to first answer (ready), sum over the instrumented processes", true);
    public static final Metric OBSERVED = new Metric("observedMs", "ms", false,
            "start-up, spawn to the first request whose trace reached the collector (observed), against the"
                    + " baseline's ready time", true);
    public static final Metric CPU = new Metric("cpuUsPerRequest", "µs", false,
            "CPU time per request (all target processes), per measured round");
    public static final Metric ALLOC = new Metric("allocBytesPerRequest", "B", false,
            "bytes allocated per request (all target processes), per measured round");
    public static final Metric COLLECTOR = new Metric("collectorCpuUsPerSpan", "µs", false,
            "the collector's CPU time per span stored, per measured round");

    public static final List<Metric> METRICS = List.of(
            STARTUP,
            OBSERVED,
            new Metric("startedLogMs", "ms", false, "start-up, 'Started @' log values (sum over processes)", true),
            new Metric("qps", "req/s", true, "closed-loop QPS per measured round"),
            new Metric("avgMs", "ms", false, "closed-loop average latency per round"),
            new Metric("p95Ms", "ms", false, "closed-loop P95 per round"),
            new Metric("p99Ms", "ms", false, "closed-loop P99 per round"),
            new Metric("errorRate", "%", false, "closed-loop errors per round"),
            CPU,
            ALLOC,
            COLLECTOR);

    /** Metrics also compared per process, as {@code name.<process>}. */
    static final List<Metric> PER_PROCESS = List.of(STARTUP, OBSERVED, CPU, ALLOC);

    /** Single-value metrics (one figure per scenario): ratio only. */
    public static final List<Metric> SINGLE = List.of(
            new Metric("gatlingQps", "req/s", true, "Gatling throughput"),
            new Metric("gatlingP95Ms", "ms", false, "Gatling P95"),
            new Metric("gatlingP99Ms", "ms", false, "Gatling P99"),
            new Metric("gatlingCpuUsPerRequest", "µs", false, "CPU time per Gatling request, all target processes"),
            new Metric("gatlingAllocBytesPerRequest", "B", false, "bytes allocated per Gatling request, all target processes"),
            new Metric("peakRssMb", "MB", false, "peak RSS, all target processes"),
            new Metric("heapAfterGcMb", "MB", false, "heap after full GC, all target processes"),
            new Metric("threads", "", false, "threads, all target processes"));

    /** The scenario the collector's cost of the others is compared with: both agents export every request. */
    static final String COLLECTOR_REFERENCE = "default-100";

    private Analysis() {
    }

    public static List<Comparison> compare(RunResults results) {
        List<Comparison> out = new ArrayList<>();
        ScenarioResult base = results.scenario("baseline");
        if (base == null) {
            return out;
        }
        String target = results.settings.target;
        String endpoint = results.settings.endpoint;
        for (ScenarioResult s : results.scenarios) {
            if (s == base) {
                continue;
            }
            Comparison c = new Comparison();
            c.scenario = s.name;
            for (Metric m : METRICS) {
                for (String name : names(m, s)) {
                    double[] x = samples(s, name);
                    if (x.length == 0) {
                        continue;
                    }
                    Anchors.Limit limit = Anchors.limit(target, endpoint, s.name, name, instrumented(s, name));
                    if (m == COLLECTOR) {
                        c.metrics.add(compareCollector(m, name, x, results.scenario(COLLECTOR_REFERENCE), s, limit));
                        continue;
                    }
                    // observed is set against the baseline's ready time: the baseline has nothing to observe
                    String baseName = m == OBSERVED ? STARTUP.name() + name.substring(m.name().length()) : name;
                    double[] y = samples(base, baseName);
                    if (y.length == 0) {
                        continue;
                    }
                    MetricComparison mc = compare(m, x, y, limit);
                    mc.metric = name;
                    mc.versus = m == OBSERVED ? "baseline " + baseName : "baseline";
                    c.metrics.add(mc);
                }
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
                mc.versus = "baseline";
                mc.verdict = "n/a";
                c.metrics.add(mc);
            }
            out.add(c);
        }
        return out;
    }

    /** The metric itself, then one per process where it has per-process samples. */
    private static List<String> names(Metric m, ScenarioResult s) {
        List<String> names = new ArrayList<>(List.of(m.name()));
        if (PER_PROCESS.contains(m)) {
            for (String svc : processes(s, m)) {
                names.add(m.name() + "." + svc);
            }
        }
        return names;
    }

    /** One metric of one scenario against the baseline (or another scenario). */
    public static MetricComparison compare(Metric m, double[] x, double[] baseline, Anchors.Limit limit) {
        MetricComparison mc = new MetricComparison();
        mc.metric = m.name();
        mc.unit = m.unit();
        mc.higherIsBetter = m.higherIsBetter();
        mc.samplesUnit = m.perLaunch() ? "launches" : "rounds";
        mc.n = x.length;
        mc.baselineN = baseline.length;
        mc.versus = "baseline";
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
        HodgesLehmann.Interval diff = HodgesLehmann.shift(x, baseline, CONFIDENCE);
        mc.differenceEstimate = diff.estimate();
        mc.differenceLow = finite(diff.low());
        mc.differenceHigh = finite(diff.high());
        mc.intervalCoverage = diff.bounded() ? diff.coverage() : null;
        HodgesLehmann.Interval ratio = positive(x) && positive(baseline) ? HodgesLehmann.ratio(x, baseline, CONFIDENCE) : null;
        if (ratio != null) {
            mc.ratioEstimate = ratio.estimate();
            mc.ratioLow = ratio.bounded() ? ratio.low() : null;
            mc.ratioHigh = finite(ratio.high());
        }
        if (limit == null) {
            mc.verdict = "n/a";
            return mc;
        }
        mc.target = limit.describe();
        HodgesLehmann.Interval on = limit.onRatio() ? ratio : diff;
        if (on == null) {
            mc.verdict = "n/a";
            return mc;
        }
        mc.verdict = on.bounded() ? NonInferiority.decide(limit, on.low(), on.high()) : NonInferiority.INCONCLUSIVE;
        if (mc.verdict.equals(NonInferiority.INCONCLUSIVE)) {
            mc.samplesToDecide = NonInferiority.samplesToDecide(limit, x, baseline, on.estimate());
        }
        return mc;
    }

    /**
     * The collector's CPU per span: held to a target of its own (the baseline has no collector) on the interval of
     * its median; set against {@value #COLLECTOR_REFERENCE}'s where that ran, for the p-value and the ratio.
     */
    static MetricComparison compareCollector(Metric m, String name, double[] x, ScenarioResult reference,
                                             ScenarioResult s, Anchors.Limit limit) {
        double[] y = reference == null || reference == s ? new double[0] : samples(reference, name);
        MetricComparison mc;
        if (y.length > 0) {
            mc = compare(m, x, y, null);
            mc.versus = reference.name;
        } else {
            mc = new MetricComparison();
            mc.unit = m.unit();
            mc.samplesUnit = "rounds";
            mc.n = x.length;
            Stats.Interval ci = Stats.medianConfidenceInterval(x, CONFIDENCE);
            mc.median = ci.estimate();
            mc.ciLow = ci.low();
            mc.ciHigh = ci.high();
            mc.ciCoverage = ci.coverage();
            mc.outliers = Stats.tukeyOutliers(x, 1.5);
            mc.versus = "none";
        }
        mc.metric = name;
        if (limit == null) {
            mc.verdict = "n/a";
            return mc;
        }
        mc.target = limit.describe();
        boolean bounded = mc.ciCoverage != null && mc.ciCoverage >= CONFIDENCE;
        mc.verdict = bounded ? NonInferiority.decide(limit, mc.ciLow, mc.ciHigh) : NonInferiority.INCONCLUSIVE;
        if (mc.verdict.equals(NonInferiority.INCONCLUSIVE)) {
            mc.samplesToDecide = NonInferiority.samplesToDecide(limit, x, mc.median);
        }
        return mc;
    }

    /** Whether the process a per-process metric names is one the agent goes on. */
    private static boolean instrumented(ScenarioResult s, String metric) {
        int dot = metric.indexOf('.');
        if (dot < 0) {
            return true;
        }
        String svc = metric.substring(dot + 1);
        for (ProcessResources r : s.resources) {
            if (r.service.equals(svc)) {
                return r.instrumented;
            }
        }
        for (StartupLaunch l : s.startup) {
            for (ProcessStartup p : l.processes) {
                if (p.service.equals(svc)) {
                    return p.instrumented;
                }
            }
        }
        return true;
    }

    /** The processes with per-process samples of a metric: the instrumented ones for start-up, every one for the rounds. */
    static Set<String> processes(ScenarioResult s, Metric m) {
        Set<String> out = new LinkedHashSet<>();
        if (m.perLaunch()) {
            for (StartupLaunch l : s.startup) {
                for (ProcessStartup p : l.processes) {
                    if (p.instrumented) {
                        out.add(p.service);
                    }
                }
            }
        } else if (s.closedLoop != null) {
            for (Round r : s.closedLoop.rounds) {
                out.addAll(m == ALLOC ? r.allocatedBytes.keySet() : r.cpuMs.keySet());
            }
        }
        return out;
    }

    /** The repeated samples of a metric: one per startup launch, or one per measured round. */
    public static double[] samples(ScenarioResult s, String metric) {
        int dot = metric.indexOf('.');
        String base = dot < 0 ? metric : metric.substring(0, dot);
        String svc = dot < 0 ? null : metric.substring(dot + 1);
        List<Double> v = new ArrayList<>();
        switch (base) {
            case "startupMs", "observedMs", "startedLogMs" -> {
                for (StartupLaunch l : s.startup) {
                    if (l.error == null && !l.processes.isEmpty()) {
                        Double x = svc == null ? launchTotal(l, base) : processValue(l, svc, base);
                        if (x != null) {
                            v.add(x);
                        }
                    }
                }
            }
            default -> {
                if (s.closedLoop != null) {
                    for (Round r : s.closedLoop.rounds) {
                        if (!r.discarded) {
                            Double x = roundValue(r, base, svc);
                            if (x != null) {
                                v.add(x);
                            }
                        }
                    }
                }
            }
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static Double launchTotal(StartupLaunch l, String metric) {
        return switch (metric) {
            case "startupMs" -> l.totalReadyMs;
            case "observedMs" -> l.totalObservedMs;
            default -> l.totalStartedLogMs;
        };
    }

    /** One process's figure of a launch; observed counts a process never observed with the time probing gave up. */
    private static Double processValue(StartupLaunch l, String svc, String metric) {
        for (ProcessStartup p : l.processes) {
            if (p.service.equals(svc)) {
                return switch (metric) {
                    case "startupMs" -> p.readyMs;
                    case "observedMs" -> p.observedMs != null ? p.observedMs : p.observeGaveUpMs;
                    default -> p.startedLogMs == null ? null : p.startedLogMs.doubleValue();
                };
            }
        }
        return null;
    }

    private static Double roundValue(Round r, String metric, String svc) {
        return switch (metric) {
            case "qps" -> r.qps;
            case "avgMs" -> r.avgMs;
            case "p95Ms" -> r.p95Ms;
            case "p99Ms" -> r.p99Ms;
            case "errorRate" -> r.requests == 0 ? 0 : 100.0 * r.errors / r.requests;
            case "cpuUsPerRequest" -> perRequest(r, r.cpuMs, svc, 1000, r.cpuMs.size());
            // the total only when every process's allocation was read
            case "allocBytesPerRequest" -> perRequest(r, r.allocatedBytes, svc, 1, r.cpuMs.size());
            case "collectorCpuUsPerSpan" -> r.collectorCpuMs == null || r.collectorSpansStored == null
                    || r.collectorSpansStored <= 0 ? null : r.collectorCpuMs * 1000 / r.collectorSpansStored;
            default -> throw new IllegalArgumentException("unknown metric " + metric);
        };
    }

    private static Double perRequest(Round r, Map<String, ? extends Number> values, String svc, double scale,
                                     int processes) {
        if (r.requests == 0 || values.isEmpty()) {
            return null;
        }
        if (svc != null) {
            Number v = values.get(svc);
            return v == null ? null : v.doubleValue() * scale / r.requests;
        }
        if (values.size() < processes) {
            return null;
        }
        double sum = 0;
        for (Number v : values.values()) {
            sum += v.doubleValue();
        }
        return sum * scale / r.requests;
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
        return switch (metric) {
            case "cpuUsPerRequest" -> sum(s, r -> r.measuredRequests == 0 ? null : r.cpuUsPerRequest);
            case "gatlingCpuUsPerRequest" -> sum(s, r -> r.gatlingCpuUsPerRequest);
            case "gatlingAllocBytesPerRequest" -> sum(s, r -> r.gatlingAllocBytesPerRequest);
            case "allocBytesPerRequest" -> sum(s, r -> r.allocBytesPerRequest);
            case "peakRssMb" -> sum(s, r -> r.vmHwmKb / 1024.0);
            case "heapAfterGcMb" -> sum(s, r -> r.heapUsedAfterGcKb == null ? null : r.heapUsedAfterGcKb / 1024.0);
            case "threads" -> sum(s, r -> (double) r.threads);
            default -> throw new IllegalArgumentException("unknown metric " + metric);
        };
    }

    /** The sum over the processes; null when there are none or one lacks the figure. */
    private static Double sum(ScenarioResult s, java.util.function.Function<ProcessResources, Double> value) {
        if (s.resources.isEmpty()) {
            return null;
        }
        double sum = 0;
        for (ProcessResources r : s.resources) {
            Double v = value.apply(r);
            if (v == null) {
                return null;
            }
            sum += v;
        }
        return sum;
    }

    private static boolean positive(double[] x) {
        for (double v : x) {
            if (!(v > 0)) {
                return false;
            }
        }
        return true;
    }

    static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
