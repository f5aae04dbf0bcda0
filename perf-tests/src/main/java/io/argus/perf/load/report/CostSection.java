package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.MetricComparison;
import io.argus.perf.load.model.RunResults.ProcessResources;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.stats.Analysis;

/** CPU and allocation per request, per process: the closed loop's rounds with intervals, the whole windows beside. */
final class CostSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Cost per request");
        md.line("Per process, per measured closed-loop round: CPU time (each thread's run time from "
                + "/proc/<pid>/task/<tid>/schedstat, in ns; /proc/<pid>/stat ticks for a window in which a thread ended) and "
                + "bytes allocated (ThreadMXBean, every application thread) over the round, divided by its requests. The "
                + "windows are contiguous, so background work (GC, JIT, the agent's exporter) is charged to the requests. "
                + "Median with its 95% order-statistic interval; against the baseline's same process the Hodges-Lehmann "
                + "ratio and difference with their 95% intervals and the Mann-Whitney p. \"Window\" is the whole measured "
                + "window from /proc/<pid>/stat (10 ms ticks) over its requests, the figure earlier reports gave; Gatling is "
                + "its whole run.");
        md.line("");
        md.row("Scenario", "Process", "CPU µs/req [95% CI]", "× base [95% CI]", "Δ µs [95% CI]", "p", "Alloc B/req [95% CI]",
                "× base [95% CI]", "Δ B [95% CI]", "p", "Window CPU µs/req", "Gatling CPU µs/req", "Gatling B/req");
        md.sep(13);
        for (ScenarioResult s : r.scenarios) {
            for (ProcessResources p : s.resources) {
                String cpu = "cpuUsPerRequest." + p.service;
                String alloc = "allocBytesPerRequest." + p.service;
                MetricComparison cm = Comparisons.find(r, s.name, cpu);
                MetricComparison am = Comparisons.find(r, s.name, alloc);
                md.row(s.name, p.service + (p.instrumented ? "" : " (no agent)"), median(s, cpu, 1),
                        Comparisons.ratio(cm), Comparisons.difference(cm, 1), cm == null ? Fmt.NONE : Fmt.p(cm.pValue),
                        median(s, alloc, 0), Comparisons.ratio(am), Comparisons.difference(am, 0),
                        am == null ? Fmt.NONE : Fmt.p(am.pValue), Fmt.num(p.cpuUsPerRequest, 1),
                        Fmt.num(p.gatlingCpuUsPerRequest, 1), Fmt.num(p.gatlingAllocBytesPerRequest, 0));
            }
        }
        md.line("");
        md.line("How allocation was read, per process of the load launch:");
        md.line("");
        for (ScenarioResult s : r.scenarios) {
            for (ProcessResources p : s.resources) {
                if (p.allocSource != null && !p.allocSource.startsWith("ThreadMXBean")) {
                    md.bullet(s.name + " " + p.service + ": " + Fmt.cell(p.allocSource));
                }
            }
        }
        md.bullet("every other process: ThreadMXBean.getThreadAllocatedBytes over a local JMX connection (the harness "
                + "attaches once, after start-up; the connection's own threads are left out)");
        md.line("");
    }

    private static String median(ScenarioResult s, String metric, int decimals) {
        double[] x = Analysis.samples(s, metric);
        if (x.length == 0) {
            return Fmt.NONE;
        }
        Stats.Interval ci = Stats.medianConfidenceInterval(x, Analysis.CONFIDENCE);
        return Fmt.num(ci.estimate(), decimals) + " " + (ci.coverage() >= Analysis.CONFIDENCE
                ? Comparisons.interval(ci.low(), ci.high(), decimals) : "[n = " + x.length + "]");
    }
}
