package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ScenarioResult;

/** The Gatling runs, from their HTML reports. */
final class GatlingSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Gatling");
        md.line("Figures from each run's HTML report (index.html statistics table, All Requests row).");
        md.line("");
        md.row("Scenario", "Users", "Seconds", "Requests", "KO", "QPS", "Mean ms", "P50 ms", "P95 ms", "P99 ms", "Max ms",
                "Report");
        md.sep(12);
        for (ScenarioResult s : r.scenarios) {
            RunResults.Gatling g = s.gatling;
            if (g == null) {
                md.row(s.name, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE,
                        Fmt.NONE, "not run");
                continue;
            }
            String report = g.reportIndex == null ? Fmt.cell(g.error) : "[" + g.reportIndex + "](" + g.reportIndex + ")";
            md.row(s.name, Integer.toString(g.users), Integer.toString(g.seconds), Long.toString(g.requests),
                    Long.toString(g.ko), Fmt.num(g.qps, 1), Fmt.num(g.meanMs, 0), Fmt.num(g.p50Ms, 0),
                    Fmt.num(g.p95Ms, 0), Fmt.num(g.p99Ms, 0), Fmt.num(g.maxMs, 0), report);
        }
        md.line("");
    }
}
