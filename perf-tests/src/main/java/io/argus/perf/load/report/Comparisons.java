package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Comparison;
import io.argus.perf.load.model.RunResults.MetricComparison;

/** Looks up a scenario's comparisons and writes their ratios and differences with the intervals, for the tables. */
final class Comparisons {

    /** Beyond this many samples the estimate says little more than "too close to the target to tell". */
    static final int MANY = 1000;

    private Comparisons() {
    }

    static MetricComparison find(RunResults r, String scenario, String metric) {
        for (Comparison c : r.comparisons) {
            if (c.scenario.equals(scenario)) {
                return c.metric(metric);
            }
        }
        return null;
    }

    static Comparison of(RunResults r, String scenario) {
        for (Comparison c : r.comparisons) {
            if (c.scenario.equals(scenario)) {
                return c;
            }
        }
        return null;
    }

    /** "×1.023 [0.981, 1.067]": the Hodges-Lehmann ratio and its 95% interval; "[unbounded]" when n is too small. */
    static String ratio(MetricComparison m) {
        if (m == null) {
            return Fmt.NONE;
        }
        if (m.ratioEstimate == null) {
            return m.ratio == null ? Fmt.NONE : "×" + Fmt.num(m.ratio, 3);
        }
        return "×" + Fmt.num(m.ratioEstimate, 3) + " " + interval(m.ratioLow, m.ratioHigh, 3);
    }

    /** "+12.3 [8.1, 16.0]" in the metric's unit. */
    static String difference(MetricComparison m, int decimals) {
        if (m == null || m.differenceEstimate == null) {
            return Fmt.NONE;
        }
        return sign(m.differenceEstimate, decimals) + " " + interval(m.differenceLow, m.differenceHigh, decimals);
    }

    static String interval(Double low, Double high, int decimals) {
        if (low == null || high == null) {
            return "[unbounded]";
        }
        return "[" + Fmt.num(low, decimals) + ", " + Fmt.num(high, decimals) + "]";
    }

    static String sign(double v, int decimals) {
        return (v >= 0 ? "+" : "−") + Fmt.num(Math.abs(v), decimals);
    }

    /** The verdict, with the samples likely to decide an inconclusive one. */
    static String verdict(MetricComparison m) {
        if (m == null || m.target == null) {
            return Fmt.NONE;
        }
        if (m.samplesToDecide != null) {
            // a value held to a target of its own has one sample; a comparison has two
            String unit = m.samplesUnit + (m.target.startsWith("value") ? "" : " a side");
            return m.verdict + (m.samplesToDecide > MANY
                    ? " (more than " + Fmt.num((double) MANY, 0) + " " + unit + ": the estimate is too close to the target)"
                    : " (≈" + m.samplesToDecide + " " + unit + " to decide)");
        }
        return m.verdict + ("INCONCLUSIVE".equals(m.verdict) ? " (the estimate sits on the target)" : "");
    }
}
