package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;

import static io.argus.perf.moobench.report.MooFormat.f0;
import static io.argus.perf.moobench.report.MooFormat.f1;
import static io.argus.perf.moobench.report.MooFormat.pm;

/** Response time of one trace per configuration. */
final class ResponseTimeSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        md.append("## Response time of one trace (ns)\n\n");
        md.append("| configuration | mean ± 95% CI | trimmed mean | Q1 | median | Q3 | p99 | max | calls ≥ 1 ms | JVM means (min–max) | JVM medians (min–max) | allocated B/trace | GCs in measured half |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (MooResults.ConfigResult c : r.configs) {
            responseRow(md, c.name, c);
        }
        md.append('\n');
    }

    private static void responseRow(Markdown md, String name, MooResults.ConfigResult c) {
        md.append("| ").append(name).append(" | ");
        if (c.response == null) {
            md.append("no successful run | | | | | | | | | | | |\n");
            return;
        }
        MooResults.ResponseTimes t = c.response;
        double alloc = 0;
        long gcs = 0;
        int n = 0;
        for (MooResults.RunResult run : c.runs) {
            if (run.ok) {
                alloc += Math.max(0, run.allocBytesPerTrace);
                gcs += Math.max(0, run.gcCountSteady);
                n++;
            }
        }
        md.append(pm(t.mean, t.ci95)).append(" | ").append(f1(t.trimmedMean)).append(" | ").append(f1(t.q1)).append(" | ").append(f1(t.median)).append(" | ")
                .append(f1(t.q3)).append(" | ").append(f1(t.p99)).append(" | ").append(f0(t.max)).append(" | ").append(t.over1ms)
                .append(" | ").append(f1(t.runMeanMin)).append("–").append(f1(t.runMeanMax)).append(" | ")
                .append(f1(t.runMedianMin)).append("–").append(f1(t.runMedianMax)).append(" | ")
                .append(n == 0 ? "" : f1(alloc / n)).append(" | ").append(gcs).append(" |\n");
    }
}
