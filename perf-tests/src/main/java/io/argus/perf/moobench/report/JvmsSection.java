package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;

import java.util.ArrayList;
import java.util.List;

import static io.argus.perf.moobench.report.MooFormat.f1;
import static io.argus.perf.moobench.report.MooFormat.nz;
import static io.argus.perf.moobench.report.MooFormat.oneLine;

/** Every benchmark JVM in the order run. */
final class JvmsSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        List<MooResults.ConfigResult> all = MooReport.configsAndDepthSeries(r);
        md.append("## Every JVM\n\nResponse times of one trace in ns, measured half.\n\n| # | configuration | depth | run | mean | trimmed | median | p99 | calls ≥ 1 ms | warm-up mean | B/trace | GCs (measured half) | pinned | load before → after | s | status |\n")
                .append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|---|\n");
        List<Object[]> rows = new ArrayList<>();
        for (MooResults.ConfigResult c : all) {
            for (MooResults.RunResult run : c.runs) {
                rows.add(new Object[] {c, run});
            }
        }
        rows.sort((a, b) -> Integer.compare(((MooResults.RunResult) a[1]).order, ((MooResults.RunResult) b[1]).order));
        for (Object[] row : rows) {
            MooResults.ConfigResult c = (MooResults.ConfigResult) row[0];
            MooResults.RunResult run = (MooResults.RunResult) row[1];
            md.append("| ").append(run.order).append(" | ").append(c.name).append(" | ").append(c.depth).append(" | ").append(run.run);
            if (run.ok) {
                md.append(" | ").append(f1(run.meanNs)).append(" | ").append(f1(run.trimmedMeanNs)).append(" | ").append(f1(run.medianNs)).append(" | ").append(f1(run.p99Ns))
                        .append(" | ").append(run.over1ms).append(" | ").append(f1(run.warmupMeanNs)).append(" | ")
                        .append(run.allocBytesPerTrace < 0 ? "" : f1(run.allocBytesPerTrace)).append(" | ")
                        .append(run.gcCountSteady).append(" (").append(run.gcMillisSteady).append(" ms) | ")
                        .append(nz(run.pin)).append(" | ").append(nz(run.loadBefore)).append(" → ").append(nz(run.loadAfter))
                        .append(" | ").append(f1(run.wallSeconds)).append(" | ok |\n");
            } else {
                md.append(" | | | | | | | | | | | ").append(f1(run.wallSeconds)).append(" | FAILED: ")
                        .append(oneLine(run.error)).append(" ([log](").append(run.log).append(")) |\n");
            }
        }
        md.append('\n');
    }
}
