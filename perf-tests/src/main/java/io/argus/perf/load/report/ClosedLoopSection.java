package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.harness.stats.Stats;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;

import java.util.ArrayList;
import java.util.List;

/** The closed-loop rounds: medians per scenario, then every round. */
final class ClosedLoopSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Closed loop");
        md.line("Medians over the measured rounds (latencies in ms):");
        md.line("");
        md.row("Scenario", "Rounds", "Min", "Max", "Avg", "P95", "P99", "Total", "QPS", "Errors", "Request");
        md.sep(11);
        for (ScenarioResult s : r.scenarios) {
            if (s.closedLoop == null || s.closedLoop.rounds.isEmpty()) {
                md.row(s.name, "0", Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE, Fmt.NONE);
                continue;
            }
            List<Round> m = measured(s);
            md.row(s.name, Integer.toString(m.size()), Fmt.ms(med(m, "min")), Fmt.ms(med(m, "max")), Fmt.ms(med(m, "avg")),
                    Fmt.ms(med(m, "p95")), Fmt.ms(med(m, "p99")), Fmt.num(med(m, "total"), 1),
                    Fmt.num(med(m, "qps"), 1), Integer.toString(m.stream().mapToInt(x -> x.errors).sum()),
                    "`" + Fmt.cell(s.closedLoop.request) + "`");
        }
        md.line("");
        for (ScenarioResult s : r.scenarios) {
            if (s.closedLoop == null || s.closedLoop.rounds.isEmpty()) {
                continue;
            }
            md.line("### " + s.name);
            md.line("");
            md.row("Round", "Min(ms)", "Max(ms)", "Avg(ms)", "P95(ms)", "P99(ms)", "Total(ms)", "QPS", "Errors",
                    "P99 exact(ms)", "Wall(ms)");
            md.sep(11);
            for (Round x : s.closedLoop.rounds) {
                md.row(x.index + (x.discarded ? " (discarded)" : ""), Fmt.plain(x.minMs, 6), Fmt.plain(x.maxMs, 6),
                        Fmt.plain(x.avgMs, 6), Fmt.plain(x.p95Ms, 6), Fmt.plain(x.p99Ms, 6), Fmt.plain(x.totalMs, 6),
                        Fmt.plain(x.qps, 6), Integer.toString(x.errors), Fmt.plain(x.p99ExactMs, 3),
                        Fmt.plain(x.wallMs, 1));
            }
            md.line("");
        }
    }

    static List<Round> measured(ScenarioResult s) {
        List<Round> m = new ArrayList<>();
        if (s.closedLoop != null) {
            for (Round x : s.closedLoop.rounds) {
                if (!x.discarded) {
                    m.add(x);
                }
            }
        }
        return m;
    }

    private static double med(List<Round> rounds, String field) {
        double[] v = new double[rounds.size()];
        for (int i = 0; i < v.length; i++) {
            Round x = rounds.get(i);
            v[i] = switch (field) {
                case "min" -> x.minMs;
                case "max" -> x.maxMs;
                case "avg" -> x.avgMs;
                case "p95" -> x.p95Ms;
                case "p99" -> x.p99Ms;
                case "total" -> x.totalMs;
                default -> x.qps;
            };
        }
        return v.length == 0 ? Double.NaN : Stats.median(v);
    }
}
