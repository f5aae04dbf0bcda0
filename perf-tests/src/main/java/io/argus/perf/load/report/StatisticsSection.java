package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Comparison;
import io.argus.perf.load.model.RunResults.MetricComparison;

/** Every metric of every scenario against the baseline. */
final class StatisticsSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Statistics vs baseline");
        if (r.comparisons.isEmpty()) {
            md.line("No comparison: the run has no baseline or no other scenario.");
            md.line("");
            return;
        }
        md.line("Median with its 95% order-statistic interval (and that interval's actual coverage); \"Versus\": what it"
                + " is set against (observed start-up against the baseline's ready time; the collector's cost against"
                + " default-100's, or against nothing); ratio of medians; the Hodges-Lehmann ratio and difference with"
                + " their 95% intervals (distribution-free, from the Mann-Whitney distribution: unbounded when the samples"
                + " are too few, e.g. below 4 a side); U, p and Cohen's d; the target and the verdict on the interval.");
        md.line("");
        md.row("Scenario", "Metric", "n", "Median", "95% CI", "Versus", "Its median", "Ratio of medians",
                "HL ratio [95% CI]", "HL difference [95% CI]", "U", "p", "d", "Target", "Verdict");
        md.sep(15);
        for (Comparison c : r.comparisons) {
            for (MetricComparison m : c.metrics) {
                String ci = m.ciLow == null ? Fmt.NONE : "[" + Fmt.num(m.ciLow, digits(m)) + ", " + Fmt.num(m.ciHigh, digits(m))
                        + "] (" + Fmt.num(m.ciCoverage * 100, 1) + "%)";
                md.row(c.scenario, m.metric + (m.unit.isEmpty() ? "" : " (" + m.unit + ")"),
                        m.baselineN == 0 ? Integer.toString(m.n) : m.n + " vs " + m.baselineN,
                        Fmt.num(m.median, digits(m)), ci, m.versus == null ? "baseline" : m.versus,
                        Fmt.num(m.baselineMedian, digits(m)), Fmt.ratio(m.ratio),
                        m.ratioEstimate == null ? Fmt.NONE : Comparisons.ratio(m),
                        m.differenceEstimate == null ? Fmt.NONE : Comparisons.difference(m, digits(m)),
                        Fmt.num(m.mannWhitneyU, 1), m.pValue == null ? Fmt.NONE : Fmt.p(m.pValue) + " (" + m.pMethod + ")",
                        Fmt.d(m.cohensD), m.target == null ? Fmt.NONE : m.target,
                        m.target == null ? m.verdict : Comparisons.verdict(m));
            }
        }
        md.line("");
    }

    private static int digits(MetricComparison m) {
        return m.unit.equals("ms") ? (m.median != null && m.median >= 100 ? 1 : 3) : m.unit.equals("%") ? 3
                : m.unit.equals("B") ? 0 : m.unit.equals("µs") ? 2 : 1;
    }
}
