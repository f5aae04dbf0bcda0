package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;
import io.argus.perf.moobench.Overheads;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.argus.perf.moobench.report.MooFormat.f1;
import static io.argus.perf.moobench.report.MooFormat.f2;
import static io.argus.perf.moobench.report.MooFormat.pm;

/** The recursion-depth series: overhead per trace against depth, with the least-squares lines. */
final class DepthSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        MooResults.Settings s = r.settings;
        List<Overheads.DepthCurve> curves = Overheads.depthCurves(r.depthSeries);
        if (!curves.isEmpty()) {
            md.append("## Recursion depth\n\n");
            md.append("![overhead per trace against recursion depth](depth.svg)\n\n");
            md.append(String.format(Locale.ROOT, "Overhead per trace (response time minus T's at the same depth; the depth columns"
                    + " and the first fit use the mean, MooBench's measure; the chart shows the trimmed mean), %d JVM(s)"
                    + " per point (the main series' where configuration and depth coincide). If the cost per instrumented call"
                    + " does not depend on depth, the points lie on a line through the origin whose slope is the cost per call.%n%n",
                    s.depthRuns));
            md.append("| configuration |");
            List<Integer> depths = new ArrayList<>(s.depths);
            depths.forEach(d -> md.append(" depth ").append(d).append(" |"));
            md.append(" slope (ns/call) | intercept (ns) | R² | trimmed: slope, R² | median: slope, R² |\n|---|");
            depths.forEach(d -> md.append("---:|"));
            md.append("---:|---:|---:|---:|---:|\n");
            for (Overheads.DepthCurve c : curves) {
                md.append("| ").append(c.config).append(" |");
                for (int d : depths) {
                    int i = c.depths.indexOf(d);
                    md.append(' ').append(i < 0 ? "–" : f1(c.overheadNs.get(i))).append(" |");
                }
                if (c.fit != null) {
                    md.append(' ').append(f2(c.fit.slope)).append(" | ").append(f1(c.fit.intercept)).append(" | ")
                            .append(String.format(Locale.ROOT, "%.4f", c.fit.r2)).append(" | ")
                            .append(f2(c.trimmedFit.slope)).append(", ").append(String.format(Locale.ROOT, "%.4f", c.trimmedFit.r2))
                            .append(" | ").append(f2(c.medianFit.slope)).append(", ").append(String.format(Locale.ROOT, "%.4f", c.medianFit.r2))
                            .append(" |\n");
                } else {
                    md.append(" – | – | – | – | – |\n");
                }
            }
            md.append("\nResponse time of one trace (ns) in the depth series:\n\n| configuration | depth | mean ± 95% CI | trimmed mean | median | JVMs |\n|---|---:|---:|---:|---:|---:|\n");
            for (MooResults.ConfigResult c : r.depthSeries) {
                if (c.response != null) {
                    md.append("| ").append(c.name).append(" | ").append(c.depth).append(" | ").append(pm(c.response.mean, c.response.ci95))
                            .append(" | ").append(f1(c.response.trimmedMean)).append(" | ").append(f1(c.response.median)).append(" | ").append(okRuns(c)).append(" |\n");
                }
            }
            md.append('\n');
        }
    }

    private static int okRuns(MooResults.ConfigResult c) {
        int n = 0;
        for (MooResults.RunResult run : c.runs) {
            if (run.ok) {
                n++;
            }
        }
        return n;
    }
}
