package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;
import io.argus.perf.moobench.Overheads;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.argus.perf.moobench.report.MooFormat.f1;
import static io.argus.perf.moobench.report.MooFormat.k;
import static io.argus.perf.moobench.report.MooFormat.pm;

/** Writes moobench.md, timeline.svg and depth.svg (moobench.json is the caller's), and the console summary. */
public final class MooReport {

    private static final List<Section<MooResults>> RENDERERS = List.of(new PerCallSection(), new ThroughputSection(),
            new ResponseTimeSection(), new TimeSeriesSection(), new DepthSection(), new SpansSection(), new JvmsSection(),
            new SetupSection(), new FailuresSection());

    private MooReport() {
    }

    public static void write(MooResults results, Path out) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("timeline.svg"), TimelineChart.svg(results), StandardCharsets.UTF_8);
        if (!Overheads.depthCurves(results.depthSeries).isEmpty()) {
            Files.writeString(out.resolve("depth.svg"), DepthChart.svg(results), StandardCharsets.UTF_8);
        } else {
            Files.deleteIfExists(out.resolve("depth.svg"));
        }
        Files.writeString(out.resolve("moobench.md"), markdown(results), StandardCharsets.UTF_8);
    }

    /** The title and the run's settings, then one renderer per section (the depth section links depth.svg). */
    static String markdown(MooResults r) {
        Markdown md = new Markdown();
        MooResults.Settings s = r.settings;
        md.append("# MooBench: Argus overhead per instrumented call\n\n");
        if (s.quick) {
            md.append("> **Quick run** (a check that every configuration runs): too few calls and JVMs for the figures to mean much.\n\n");
        }
        md.append(String.format(Locale.ROOT, "%s to %s. %,d calls per JVM, the first half thrown away; recursion depth %d;"
                        + " method time %d ns; %d JVM(s) per configuration, interleaved run by run; %d bins per run.%n%n",
                r.startedAt, r.finishedAt, s.calls, s.depth, s.methodTimeNs, s.runs, s.bins));
        for (Section<MooResults> section : RENDERERS) {
            section.render(r, md);
        }
        return md.toString();
    }

    /** The main series' configurations, then those of the depth series that are not among them. */
    static List<MooResults.ConfigResult> configsAndDepthSeries(MooResults r) {
        List<MooResults.ConfigResult> all = new ArrayList<>(r.configs);
        for (MooResults.ConfigResult c : r.depthSeries) {
            if (!all.contains(c)) {
                all.add(c);
            }
        }
        return all;
    }

    /** The console summary: ns per call and traces per second. */
    public static String headline(MooResults r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "MooBench, depth %d, %,d calls x %d JVM(s) per configuration%s%n",
                r.settings.depth, r.settings.calls, r.settings.runs, r.settings.quick ? " (quick)" : ""));
        sb.append(String.format(Locale.ROOT, "%-12s %16s %14s %14s %14s %26s%n", "config", "traces/s (mean)", "trace ns mean",
                "trimmed", "median", "ns/call vs T mean|trim|med"));
        Map<String, Overheads.PerCall> vsT = Overheads.versusT(r.configs);
        for (MooResults.ConfigResult c : r.configs) {
            if (c.response == null) {
                sb.append(String.format(Locale.ROOT, "%-12s %s%n", c.name, "no successful run"));
                continue;
            }
            Overheads.PerCall p = vsT.get(c.name);
            sb.append(String.format(Locale.ROOT, "%-12s %16s %14.1f %14.1f %14.1f %26s%n", c.name, k(c.throughput.mean),
                    c.response.mean, c.response.trimmedMean, c.response.median,
                    p == null ? "" : f1(p.meanNs) + " | " + f1(p.trimmedNs) + " | " + f1(p.medianNs)));
        }
        for (Overheads.PerCall p : Overheads.portions(r.configs).values()) {
            sb.append(String.format(Locale.ROOT, "portion %s: %s ns per call (trimmed %s, median %s)%n", p.config,
                    pm(p.meanNs, p.ci95), f1(p.trimmedNs), f1(p.medianNs)));
        }
        for (Overheads.DepthCurve c : Overheads.depthCurves(r.depthSeries)) {
            if (c.fit != null) {
                sb.append(String.format(Locale.ROOT, "depth series %s: slope %.2f ns/call, R² %.4f (trimmed %.2f, R² %.4f; median %.2f, R² %.4f)%n",
                        c.config, c.fit.slope, c.fit.r2, c.trimmedFit.slope, c.trimmedFit.r2, c.medianFit.slope, c.medianFit.r2));
            }
        }
        return sb.toString();
    }
}
