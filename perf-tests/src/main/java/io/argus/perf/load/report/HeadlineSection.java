package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Comparison;
import io.argus.perf.load.model.RunResults.MetricComparison;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.stats.Analysis;

import java.util.ArrayList;
import java.util.List;

/** The headline table: medians, ratios to the baseline, p, d and the verdicts. */
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
        md.line("Medians over the startup launches and over the measured closed-loop rounds; ratio = scenario / "
                + "baseline; p = two-sided Mann-Whitney U on QPS per round; d = Cohen's d on QPS per round "
                + "(negative: slower than baseline). Verdicts against the anchors targets (Argus scenarios only): "
                + "startup, QPS, P99.");
        md.line("");
        md.row("Scenario", "Agent", "Startup ms", "× base", "QPS", "× base", "P95 ms", "× base", "P99 ms", "× base",
                "p (QPS)", "d (QPS)", "Verdicts");
        md.sep(13);
        for (ScenarioResult s : r.scenarios) {
            Comparison c = comparison(r, s.name);
            double[] startup = Analysis.samples(s, "startupMs");
            double[] qps = Analysis.samples(s, "qps");
            double[] p95 = Analysis.samples(s, "p95Ms");
            double[] p99 = Analysis.samples(s, "p99Ms");
            MetricComparison cq = c == null ? null : c.metric("qps");
            md.row(s.name + (s.status.equals("ok") ? "" : " (" + s.status + ")"), s.agent,
                    startup.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(startup), 0), ratio(c, "startupMs"),
                    qps.length == 0 ? Fmt.NONE : Fmt.num(Stats.median(qps), 1), ratio(c, "qps"),
                    p95.length == 0 ? Fmt.NONE : Fmt.ms(Stats.median(p95)), ratio(c, "p95Ms"),
                    p99.length == 0 ? Fmt.NONE : Fmt.ms(Stats.median(p99)), ratio(c, "p99Ms"),
                    cq == null ? Fmt.NONE : Fmt.p(cq.pValue), cq == null ? Fmt.NONE : Fmt.d(cq.cohensD),
                    verdicts(c));
        }
        md.line("");
    }

    private static Comparison comparison(RunResults r, String scenario) {
        for (Comparison c : r.comparisons) {
            if (c.scenario.equals(scenario)) {
                return c;
            }
        }
        return null;
    }

    private static String ratio(Comparison c, String metric) {
        MetricComparison m = c == null ? null : c.metric(metric);
        return m == null ? Fmt.NONE : Fmt.ratio(m.ratio);
    }

    private static String verdicts(Comparison c) {
        if (c == null) {
            return Fmt.NONE;
        }
        List<String> v = new ArrayList<>();
        for (MetricComparison m : c.metrics) {
            if (m.target != null) {
                v.add(m.metric + " " + m.verdict);
            }
        }
        return v.isEmpty() ? "reference" : String.join(", ", v);
    }
}
