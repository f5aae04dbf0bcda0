package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;

import java.util.ArrayList;
import java.util.List;

import static io.argus.perf.moobench.report.MooFormat.k;

/** Throughput in the shape of Kieker's tables. */
final class ThroughputSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        MooResults.Settings s = r.settings;
        md.append("## Throughput (traces per second)\n\n");
        md.append("In the shape of Kieker's tables: one trace is one top-level call (").append(s.depth)
                .append(" instrumented calls). Each bin of the measured half gives one throughput sample,"
                        + " calls in the bin / the sum of their response times; statistics over the bins of every run.\n\n");
        List<MooResults.ConfigResult> ok = new ArrayList<>();
        for (MooResults.ConfigResult c : r.configs) {
            if (c.throughput != null) {
                ok.add(c);
            }
        }
        if (!ok.isEmpty()) {
            md.append("| |");
            ok.forEach(c -> md.append(' ').append(c.name).append(" |"));
            md.append("\n|---|");
            ok.forEach(c -> md.append("---:|"));
            md.append('\n');
            row(md, "Mean", ok, c -> k(c.throughput.mean));
            row(md, "95% CI", ok, c -> "± " + k(c.throughput.ci95));
            row(md, "Q1", ok, c -> k(c.throughput.q1));
            row(md, "Median", ok, c -> k(c.throughput.median));
            row(md, "Q3", ok, c -> k(c.throughput.q3));
            md.append('\n');
        }
    }

    private interface Cell {
        String of(MooResults.ConfigResult c);
    }

    private static void row(Markdown md, String label, List<MooResults.ConfigResult> configs, Cell cell) {
        md.append("| ").append(label).append(" |");
        configs.forEach(c -> md.append(' ').append(cell.of(c)).append(" |"));
        md.append('\n');
    }
}
