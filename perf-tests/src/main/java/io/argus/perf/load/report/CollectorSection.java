package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ScenarioResult;

/** What the collector received and stored. */
final class CollectorSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Collector");
        md.line("The Argus scenarios and otel-otlp export to a real collector started from the distribution (fresh data "
                + "folder per scenario). After the load phase the harness asks its API how many traces of the first "
                + "service it stored; the requests sent include the start-up probes, each a sampled trace (so a 0% "
                + "scenario stores those).");
        md.line("");
        md.row("Scenario", "Services", "Traces stored", "Requests sent", "Spans received", "Spans stored",
                "Rows dropped", "Frames rejected", "HTTP metric rows", "JVM gauge rows", "Newest trace",
                "Collector CPU ms");
        md.sep(12);
        for (ScenarioResult s : withCollector(r)) {
            RunResults.CollectorCheck c = s.collector;
            md.row(s.name, Fmt.cell(String.join(", ", c.services)), c.tracesStored == null ? Fmt.cell(c.detail)
                            : (c.tracesAtLimit ? "≥ " : "") + c.tracesStored, Long.toString(c.requestsSent),
                    Fmt.num(c.spansReceived, 0), Fmt.num(c.spansStored, 0), Fmt.num(c.rowsDropped, 0),
                    Fmt.num(c.framesRejected, 0), Fmt.num(c.httpMetricsStored, 0), Fmt.num(c.jvmGaugesStored, 0),
                    c.sampleTraceId == null ? Fmt.NONE : c.sampleTraceSpans + " spans from "
                            + String.join(" + ", c.sampleTraceServices), Fmt.num(c.cpuMsTotal, 0));
        }
        if (withCollector(r).isEmpty()) {
            md.row("(no collector scenario)", "", "", "", "", "", "", "", "", "", "", "");
        }
        md.line("");
        costTable(r, md);
        md.line("Traces are counted with `GET " + traceQuery(r) + "` (the API returns at most 1,000, so \"≥ 1000\" means "
                + "at least that many); spans and drops come from the collector's own counters (`GET /metrics`).");
        md.line("");
    }

    /**
     * The collector's CPU per span stored and per request, as a cost of its own beside the application's CPU per
     * request (all target processes, measured closed-loop rounds).
     */
    private static void costTable(RunResults r, Markdown md) {
        md.line("The collector's own cost (placement: " + MachineSection.placement(r.settings) + "): its CPU time from the "
                + "start of the load phase until its stored-span counter settled, per span stored and per request sent, "
                + "beside the application's CPU per request (all target processes, measured closed-loop rounds).");
        md.line("");
        md.row("Scenario", "Collector CPU ms (load phase)", "Spans stored (load phase)", "Collector CPU µs / span",
                "Per round: µs / span [95% CI]", "Gatling: µs / span", "Collector CPU µs / request",
                "Application CPU µs / request", "Application + collector µs / request");
        md.sep(9);
        for (ScenarioResult s : withCollector(r)) {
            RunResults.CollectorCheck c = s.collector;
            Double app = s.resources.isEmpty() ? null
                    : s.resources.stream().mapToDouble(p -> p.cpuUsPerRequest).sum();
            md.row(s.name, Fmt.num(c.cpuMsLoad, 0), Fmt.num(c.spansStoredLoad, 0), Fmt.num(c.cpuUsPerSpan, 1),
                    perRound(s), Fmt.num(c.gatlingCpuUsPerSpan, 1), Fmt.num(c.cpuUsPerRequest, 1), Fmt.num(app, 1),
                    app == null || c.cpuUsPerRequest == null ? Fmt.NONE : Fmt.num(app + c.cpuUsPerRequest, 1));
        }
        if (withCollector(r).isEmpty()) {
            md.row("(no collector scenario)", "", "", "", "", "", "", "", "");
        }
        md.line("");
        md.line("Per round: the collector's CPU time (its threads' run time) over each measured closed-loop round's window "
                + "divided by the spans it stored in that window (its counter, read at every round boundary), median "
                + "and 95% interval; its verdict is in the headline.");
        md.line("");
    }

    private static String perRound(ScenarioResult s) {
        double[] x = io.argus.perf.load.stats.Analysis.samples(s, "collectorCpuUsPerSpan");
        if (x.length == 0) {
            return Fmt.NONE;
        }
        io.argus.perf.harness.stats.Stats.Interval ci = io.argus.perf.harness.stats.Stats.medianConfidenceInterval(x, 0.95);
        return Fmt.num(ci.estimate(), 2) + " " + (ci.coverage() >= 0.95 ? Comparisons.interval(ci.low(), ci.high(), 2)
                : "[n = " + x.length + "]");
    }

    private static java.util.List<ScenarioResult> withCollector(RunResults r) {
        return r.scenarios.stream().filter(s -> s.collector != null).toList();
    }

    private static String traceQuery(RunResults r) {
        for (ScenarioResult s : r.scenarios) {
            if (s.collector != null && s.collector.query != null) {
                return s.collector.query;
            }
        }
        return "/api/traces?service=front&limit=1000";
    }
}
