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
        md.row("Scenario", "Metric", "n", "Median", "95% CI", "Baseline", "Ratio", "U", "p", "d", "Target", "Verdict");
        md.sep(12);
        for (Comparison c : r.comparisons) {
            for (MetricComparison m : c.metrics) {
                String ci = m.ciLow == null ? Fmt.NONE : "[" + Fmt.num(m.ciLow, digits(m)) + ", " + Fmt.num(m.ciHigh, digits(m))
                        + "] (" + Fmt.num(m.ciCoverage * 100, 1) + "%)";
                md.row(c.scenario, m.metric + (m.unit.isEmpty() ? "" : " (" + m.unit + ")"), m.n + " vs " + m.baselineN,
                        Fmt.num(m.median, digits(m)), ci, Fmt.num(m.baselineMedian, digits(m)), Fmt.ratio(m.ratio),
                        Fmt.num(m.mannWhitneyU, 1), m.pValue == null ? Fmt.NONE : Fmt.p(m.pValue) + " (" + m.pMethod + ")",
                        Fmt.d(m.cohensD), m.target == null ? Fmt.NONE : m.target, m.verdict);
            }
        }
        md.line("");
    }

    private static int digits(MetricComparison m) {
        return m.unit.equals("ms") ? (m.median != null && m.median >= 100 ? 1 : 3) : m.unit.equals("%") ? 3 : 1;
    }
}
