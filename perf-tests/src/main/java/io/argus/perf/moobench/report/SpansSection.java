package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;

import java.util.List;
import java.util.Locale;

import static io.argus.perf.moobench.report.MooFormat.count;

/** The Argus agent's span counters, and the collector's. */
final class SpansSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        md.append("## Spans\n\nThe Argus agent's own counters, read in the benchmark JVM right after its last call; for T+I+C+W and"
                + " T+I+C+W(all) also"
                + " the collector's view after the JVM exited (the agent's last heartbeat, spans received and stored). *Measured half*: the same counters"
                + " over the measured half only, per second of it, and the share of the spans made then that were dropped.\n\n");
        md.append("| configuration | depth | run | spans made | sent | dropped (queue full) | measured half: sent / s"
                        + " | measured half: dropped | collector: received | stored |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        List<MooResults.ConfigResult> all = MooReport.configsAndDepthSeries(r);
        for (MooResults.ConfigResult c : all) {
            if (!c.name.startsWith("T+I+C")) {
                continue;
            }
            for (MooResults.RunResult run : c.runs) {
                if (!run.ok) {
                    continue;
                }
                md.append("| ").append(c.name).append(" | ").append(c.depth).append(" | ").append(run.run).append(" | ")
                        .append(String.format(Locale.ROOT, "%,d", run.calls * c.depth)).append(" | ")
                        .append(count(run.counters.get("argus.sentSpans"))).append(" | ")
                        .append(count(run.counters.get("argus.droppedSpans"))).append(" | ")
                        .append(run.spansSentPerSecond == null ? "—" : PerCallSection.perSecond(run.spansSentPerSecond))
                        .append(" | ").append(run.dropShare == null ? "—" : PerCallSection.share(run.dropShare)).append(" | ")
                        .append(count(run.counters.get("collector.spansReceived"))).append(" | ")
                        .append(count(run.counters.get("collector.spansStored"))).append(" |\n");
            }
        }
        md.append('\n');
    }
}
