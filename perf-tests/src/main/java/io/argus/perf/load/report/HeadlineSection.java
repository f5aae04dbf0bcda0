package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Comparison;
import io.argus.perf.load.model.RunResults.MetricComparison;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;
import io.argus.perf.load.stats.Analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * The headline: start-up as users see it (observed, ready beside it), then the cost of a request in CPU and
 * allocation beside QPS and latency, each ratio with its 95% interval, then every verdict.
 */
final class HeadlineSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Headline");
        if (MachineSection.busy(r.machine)) {
            md.line("**Warning:** the 1-minute load average (" + r.machine.loadAverageStart + " at start, "
                    + r.machine.loadAverageEnd + " at end) exceeded the " + r.machine.cores
                    + " cores: other work competed with the targets, and these figures are not fit to publish.");
            md.line("");
        }
        md.line("Placement: " + MachineSection.placement(r.settings) + (r.settings.targetCpus == null
                ? " (the co-located view; `--placement separate` simulates a separate host)."
                : " (a simulated separate host; `--placement shared` gives the co-located view)."));
        md.line("");
        startup(r, md);
        cost(r, md);
        verdicts(r, md);
    }

    private static void startup(RunResults r, Markdown md) {
        md.line("**Start-up.** Observed: from spawn to the first request whose trace reached the run's collector (each "
                + "probe carries a sampled traceparent of its own), summed over the instrumented processes, against the "
                + "baseline's ready time; ready: to the first answer. Ratios are Hodges-Lehmann estimates (the median of "
                + "all pairwise ratios) with their 95% interval; \"unobserved\" counts the requests answered before "
                + "the first observed one (median per launch).");
        md.line("");
        md.row("Scenario", "Agent", "Observed ms", "× baseline ready [95% CI]", "Ready ms", "× baseline [95% CI]",
                "Answered unobserved", "Never observed");
        md.sep(8);
        for (ScenarioResult s : r.scenarios) {
            double[] ready = Analysis.samples(s, "startupMs");
            double[] observed = Analysis.samples(s, "observedMs");
            String obs;
            String obsRatio;
            if (!s.observable) {
                obs = "ready only: " + (s.readyOnlyReason == null ? "not observable" : s.readyOnlyReason);
                obsRatio = Fmt.NONE;
            } else {
                obs = observed.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(observed), 0);
                obsRatio = Comparisons.ratio(Comparisons.find(r, s.name, "observedMs"));
            }
            md.row(name(s), s.agent, obs, obsRatio, ready.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(ready), 0),
                    s.name.equals("baseline") ? Fmt.NONE : Comparisons.ratio(Comparisons.find(r, s.name, "startupMs")),
                    s.observable ? unobserved(s) : Fmt.NONE, s.observable ? neverObserved(s) : Fmt.NONE);
        }
        md.line("");
    }

    private static void cost(RunResults r, Markdown md) {
        md.line("**Cost per request.** Closed loop: per measured round, the CPU time (all target processes, from "
                + "/proc) and the bytes allocated (ThreadMXBean) over the round divided by its requests; medians, then "
                + "the ratio and the difference to the baseline as Hodges-Lehmann estimates with their 95% intervals, and "
                + "the Mann-Whitney p. Gatling: the same figures over its simulation's window (one window, a ratio only). The "
                + "collector's CPU per span stored is its own cost, beside the application's.");
        md.line("");
        md.row("Scenario", "CPU µs/req", "× base [95% CI]", "Δ µs [95% CI]", "p", "Alloc B/req", "× base [95% CI]",
                "Collector µs/span", "QPS", "× base [95% CI]", "p", "P99 ms", "× base [95% CI]", "Gatling QPS",
                "Gatling CPU µs/req");
        md.sep(15);
        for (ScenarioResult s : r.scenarios) {
            Comparison c = Comparisons.of(r, s.name);
            MetricComparison cpu = c == null ? null : c.metric("cpuUsPerRequest");
            MetricComparison alloc = c == null ? null : c.metric("allocBytesPerRequest");
            MetricComparison qps = c == null ? null : c.metric("qps");
            double[] cpuX = Analysis.samples(s, "cpuUsPerRequest");
            double[] allocX = Analysis.samples(s, "allocBytesPerRequest");
            double[] spanX = Analysis.samples(s, "collectorCpuUsPerSpan");
            double[] qpsX = Analysis.samples(s, "qps");
            double[] p99X = Analysis.samples(s, "p99Ms");
            Double gq = Analysis.single(s, "gatlingQps");
            Double gc = Analysis.single(s, "gatlingCpuUsPerRequest");
            MetricComparison gqm = c == null ? null : c.metric("gatlingQps");
            MetricComparison gcm = c == null ? null : c.metric("gatlingCpuUsPerRequest");
            md.row(name(s), median(cpuX, 1), Comparisons.ratio(cpu), Comparisons.difference(cpu, 1),
                    cpu == null ? Fmt.NONE : Fmt.p(cpu.pValue), median(allocX, 0), Comparisons.ratio(alloc),
                    median(spanX, 2), median(qpsX, 1), Comparisons.ratio(qps), qps == null ? Fmt.NONE : Fmt.p(qps.pValue),
                    p99X.length == 0 ? Fmt.NONE : Fmt.ms(Stats.median(p99X)),
                    Comparisons.ratio(c == null ? null : c.metric("p99Ms")),
                    gq == null ? Fmt.NONE : Fmt.num(gq, 1) + single(gqm), gc == null ? Fmt.NONE : Fmt.num(gc, 1) + single(gcm));
        }
        md.line("");
    }

    private static void verdicts(RunResults r, Markdown md) {
        md.line("**Verdicts** against the targets of anchors.md (Argus scenarios; the collector's cost also where OpenTelemetry "
                + "exports to it): PASS only when the whole 95% interval lies on the good side of the target, FAIL when it "
                + "lies wholly on the bad side, INCONCLUSIVE otherwise, with the samples a side that would likely decide it "
                + "(80% power, at the same estimate and spread).");
        md.line("");
        md.row("Scenario", "Metric", "Estimate [95% CI]", "Target", "Verdict");
        md.sep(5);
        boolean any = false;
        for (Comparison c : r.comparisons) {
            for (MetricComparison m : c.metrics) {
                if (m.target == null) {
                    continue;
                }
                any = true;
                md.row(c.scenario, m.metric + (m.versus == null || m.versus.equals("baseline") ? "" : " (vs " + m.versus + ")"),
                        estimate(m), m.target, "**" + Comparisons.verdict(m) + "**");
            }
        }
        if (!any) {
            md.row("(no target applies)", "", "", "", "");
        }
        md.line("");
    }

    /** The interval the verdict was taken on. */
    static String estimate(MetricComparison m) {
        if (m.target.startsWith("ratio")) {
            return Comparisons.ratio(m);
        }
        if (m.target.startsWith("difference")) {
            return Comparisons.difference(m, 1) + " " + m.unit;
        }
        return Fmt.num(m.median, 2) + " " + m.unit + " " + (m.ciCoverage != null && m.ciCoverage >= 0.95
                ? Comparisons.interval(m.ciLow, m.ciHigh, 2) : "[unbounded]");
    }

    private static String single(MetricComparison m) {
        return m == null || m.ratio == null ? "" : " (×" + Fmt.num(m.ratio, 3) + ")";
    }

    private static String median(double[] x, int decimals) {
        return x.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(x), decimals);
    }

    private static String name(ScenarioResult s) {
        return s.name + (s.status.equals("ok") ? "" : " (" + s.status + ")");
    }

    private static String unobserved(ScenarioResult s) {
        List<Double> v = new ArrayList<>();
        for (StartupLaunch l : s.startup) {
            if (l.error != null || l.totalObservedMs == null) {
                continue;
            }
            double sum = 0;
            for (ProcessStartup p : l.processes) {
                sum += p.probesUnobserved == null ? 0 : p.probesUnobserved;
            }
            v.add(sum);
        }
        return v.isEmpty() ? Fmt.NONE : Fmt.num(Stats.median(v.stream().mapToDouble(Double::doubleValue).toArray()), 0);
    }

    private static String neverObserved(ScenarioResult s) {
        int never = 0;
        int launches = 0;
        for (StartupLaunch l : s.startup) {
            if (l.error == null && l.totalObservedMs != null) {
                launches++;
                never += l.neverObserved > 0 ? 1 : 0;
            }
        }
        return launches == 0 ? Fmt.NONE : never + " of " + launches + " launches";
    }
}
