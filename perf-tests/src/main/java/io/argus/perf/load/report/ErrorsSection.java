package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.stats.Analysis;

import java.util.ArrayList;
import java.util.List;

/** Errors, error rates, outliers and the problems met. */
final class ErrorsSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Errors and outliers");
        md.row("Scenario", "Status", "Closed-loop errors", "Error rate", "Gatling KO", "Outlier rounds (QPS)",
                "Outlier launches (startup)");
        md.sep(7);
        for (ScenarioResult s : r.scenarios) {
            long requests = 0;
            long errors = 0;
            for (Round x : ClosedLoopSection.measured(s)) {
                requests += x.requests;
                errors += x.errors;
            }
            md.row(s.name, s.status, Long.toString(errors), requests == 0 ? Fmt.NONE
                            : Fmt.num(100.0 * errors / requests, 3) + "%",
                    s.gatling == null ? Fmt.NONE : Long.toString(s.gatling.ko),
                    outliers(r, Analysis.samples(s, "qps"), true), outliers(r, Analysis.samples(s, "startupMs"), false));
        }
        md.line("");
        boolean any = false;
        for (ScenarioResult s : r.scenarios) {
            for (String e : s.errors) {
                if (!any) {
                    md.line("Problems met during the run:");
                    md.line("");
                    any = true;
                }
                md.bullet("**" + s.name + "**: " + Fmt.abbreviate(e, 400));
            }
        }
        if (!any) {
            md.line("No scenario reported a problem.");
        }
        md.line("");
    }

    private static String outliers(RunResults r, double[] x, boolean rounds) {
        List<Integer> idx = Stats.tukeyOutliers(x, 1.5);
        if (idx.isEmpty()) {
            return "none";
        }
        List<String> out = new ArrayList<>();
        for (int i : idx) {
            out.add((rounds ? "#" + (i + 1 + r.settings.discardRounds) : "launch " + (i + 1)) + " = " + Fmt.num(x[i], 1));
        }
        return String.join(", ", out);
    }
}
