package io.argus.perf.moobench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes moobench.md, moobench.json (done by the caller), timeline.svg and depth.svg. */
public final class MooReport {

    /** The figures of the anchors file (shared/anchors.md), per instrumented call at depth 10. */
    static final Map<String, String[]> PUBLISHED = new LinkedHashMap<>();
    static final Map<String, String> TARGETS = new LinkedHashMap<>();

    static {
        PUBLISHED.put("T+I", new String[] {"Kieker, probe deactivated", "≈0.4"});
        PUBLISHED.put("T+I+C", new String[] {"Kieker, no data collection", "≈42"});
        PUBLISHED.put("T+I+C+W", new String[] {"Kieker, binary file writer", "≈100"});
        PUBLISHED.put("otel-off", new String[] {"OpenTelemetry, sampler off", "≈145"});
        PUBLISHED.put("otel-on", new String[] {"OpenTelemetry, Zipkin export", "≈250"});
        TARGETS.put("T+I", "≤ 1");
        TARGETS.put("T+I+C", "≤ 25");
        TARGETS.put("T+I+C+W", "≤ 50");
    }

    private MooReport() {
    }

    public static void write(MooResults results, Path out) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("timeline.svg"), timelineSvg(results), StandardCharsets.UTF_8);
        boolean depth = !Overheads.depthCurves(results.depthSeries).isEmpty();
        if (depth) {
            Files.writeString(out.resolve("depth.svg"), depthSvg(results), StandardCharsets.UTF_8);
        } else {
            Files.deleteIfExists(out.resolve("depth.svg"));
        }
        Files.writeString(out.resolve("moobench.md"), markdown(results, depth), StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ markdown

    static String markdown(MooResults r, boolean depthChart) {
        StringBuilder md = new StringBuilder();
        MooResults.Settings s = r.settings;
        md.append("# MooBench: Argus overhead per instrumented call\n\n");
        if (s.quick) {
            md.append("> **Quick run** (a check that every configuration runs): too few calls and JVMs for the figures to mean much.\n\n");
        }
        md.append(String.format(Locale.ROOT, "%s to %s. %,d calls per JVM, the first half thrown away; recursion depth %d;"
                        + " method time %d ns; %d JVM(s) per configuration, interleaved run by run; %d bins per run.%n%n",
                r.startedAt, r.finishedAt, s.calls, s.depth, s.methodTimeNs, s.runs, s.bins));

        md.append("## Nanoseconds per instrumented call\n\n");
        md.append(String.format(Locale.ROOT, "Depth %d, measured half of every run. *Mean ± 95%% CI*: from the mean response"
                + " time of a trace, MooBench's measure. *Trimmed*: from the mean without the slowest 0.1%% of the calls,"
                + " which a few descheduled calls or GC pauses cannot move. *Median*: from the median response time"
                + " (System.nanoTime() ticks by 10 ns here, so at depth 10 it moves in steps of 1 ns per call).%n%n", s.depth));
        Map<String, Overheads.PerCall> portions = Overheads.portions(r.configs);
        if (!portions.isEmpty()) {
            md.append("| portion | measured as | mean ± 95% CI (ns) | trimmed (ns) | median (ns) |\n|---|---|---:|---:|---:|\n");
            String[] what = {"I", "instrumentation, probe deactivated: T+I − T", "C", "collecting (spans built, discarded): T+I+C − T+I",
                    "W", "writing to the collector: T+I+C+W − T+I+C"};
            for (int i = 0; i < what.length; i += 2) {
                Overheads.PerCall p = portions.get(what[i]);
                if (p != null) {
                    md.append("| ").append(what[i]).append(" | ").append(what[i + 1]).append(" | ")
                            .append(pm(p.meanNs, p.ci95)).append(" | ").append(f1(p.trimmedNs)).append(" | ")
                            .append(f1(p.medianNs)).append(" |\n");
                }
            }
            md.append('\n');
        }
        Map<String, Overheads.PerCall> vsT = Overheads.versusT(r.configs);
        if (!vsT.isEmpty()) {
            md.append("Overhead against T (everything the agent adds per call), next to Argus's targets and the published"
                    + " MooBench figures of the project's reference set (depth 10, method time 0, GitHub runners, JDK 21):\n\n");
            md.append("| configuration | ns per call vs T: mean ± 95% CI | trimmed | median | Argus target | published figure |\n")
                    .append("|---|---:|---:|---:|---:|---|\n");
            for (Overheads.PerCall p : vsT.values()) {
                String[] pub = PUBLISHED.get(p.config);
                md.append("| ").append(p.config).append(" | ").append(pm(p.meanNs, p.ci95)).append(" | ")
                        .append(f1(p.trimmedNs)).append(" | ").append(f1(p.medianNs)).append(" | ").append(TARGETS.getOrDefault(p.config, "")).append(" | ")
                        .append(pub == null ? "" : pub[0] + ": " + pub[1] + " ns").append(" |\n");
            }
            md.append('\n');
        }

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

        md.append("## Response time of one trace (ns)\n\n");
        md.append("| configuration | mean ± 95% CI | trimmed mean | Q1 | median | Q3 | p99 | max | calls ≥ 1 ms | JVM means (min–max) | JVM medians (min–max) | allocated B/trace | GCs in measured half |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (MooResults.ConfigResult c : r.configs) {
            responseRow(md, c.name, c);
        }
        md.append('\n');

        md.append("## Time series\n\n![binned response time of one run per configuration](timeline.svg)\n\n");
        md.append(String.format(Locale.ROOT, "Mean response time of each of the %d bins of one run per configuration (log scale)."
                + " The shaded first half is the warm-up that is thrown away.%n%n", s.bins));

        List<Overheads.DepthCurve> curves = Overheads.depthCurves(r.depthSeries);
        if (!curves.isEmpty()) {
            md.append("## Recursion depth\n\n");
            if (depthChart) {
                md.append("![overhead per trace against recursion depth](depth.svg)\n\n");
            }
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

        md.append("## Spans\n\nThe Argus agent's own counters, read in the benchmark JVM right after its last call; for T+I+C+W also"
                + " the collector's view after the JVM exited (the agent's last heartbeat, spans received and stored).\n\n");
        md.append("| configuration | depth | run | spans made | sent | dropped (queue full) | collector: received | stored |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        List<MooResults.ConfigResult> all = new ArrayList<>(r.configs);
        for (MooResults.ConfigResult c : r.depthSeries) {
            if (!all.contains(c)) {
                all.add(c);
            }
        }
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
                        .append(count(run.counters.get("collector.spansReceived"))).append(" | ")
                        .append(count(run.counters.get("collector.spansStored"))).append(" |\n");
            }
        }
        md.append('\n');

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

        md.append("## Setup\n\n");
        MooResults.Machine m = r.machine;
        md.append("| | |\n|---|---|\n");
        md.append("| machine | ").append(m.cores).append(" cores, ").append(String.format(Locale.ROOT, "%,d", m.memoryMb))
                .append(" MB, ").append(nz(m.cpuModel)).append(", clock source ").append(nz(m.clockSource)).append(" |\n");
        md.append("| system | ").append(nz(m.kernel)).append(" |\n");
        md.append("| benchmark JVMs | ").append(nz(m.benchJava)).append(" |\n");
        md.append("| controller | ").append(nz(m.controllerJava)).append(" |\n");
        md.append("| load average (1, 5, 15 min) | at start ").append(nz(m.loadAverageAtStart)).append(", at end ")
                .append(nz(m.loadAverageAtEnd)).append(" |\n");
        md.append("| pinning | ").append(s.pinned ? "the benchmark thread alone on cpu" + s.benchCpu
                + " (taskset -p from inside its JVM); the rest of that JVM (JIT, GC, agent threads) and the collector on cpu"
                + s.otherCpu : "none").append(" |\n");
        md.append("| JVM options (all) | `").append(String.join(" ", s.jvmOptions)).append("` |\n");
        md.append("| traced method | `").append(nz(s.tracedMethod)).append("` |\n");
        if (s.agentDir != null) {
            md.append("| Argus agent | ").append(s.agentDir).append(", plugins: ").append(String.join(", ", s.agentPlugins)).append(" |\n");
        }
        if (s.otelAgent != null) {
            md.append("| OpenTelemetry agent | ").append(s.otelAgent).append(" |\n");
        }
        if (s.collector != null) {
            md.append("| collector | ").append(s.collector).append(", a fresh one with a fresh data folder per T+I+C+W JVM |\n");
        }
        md.append("\n| configuration | what | agent flags |\n|---|---|---|\n");
        for (MooResults.ConfigResult c : r.configs) {
            List<String> flags = new ArrayList<>(c.jvmFlags);
            flags.removeAll(s.jvmOptions);
            md.append("| ").append(c.name).append(" | ").append(nz(c.description)).append(" | `")
                    .append(flags.isEmpty() ? "(none)" : String.join(" ", flags)).append("` |\n");
        }
        md.append('\n');
        if (!r.failures.isEmpty()) {
            md.append("## Failures\n\n");
            r.failures.forEach(f -> md.append("- ").append(oneLine(f)).append('\n'));
            md.append('\n');
        }
        return md.toString();
    }

    private static void responseRow(StringBuilder md, String name, MooResults.ConfigResult c) {
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

    private interface Cell {
        String of(MooResults.ConfigResult c);
    }

    private static void row(StringBuilder md, String label, List<MooResults.ConfigResult> configs, Cell cell) {
        md.append("| ").append(label).append(" |");
        configs.forEach(c -> md.append(' ').append(cell.of(c)).append(" |"));
        md.append('\n');
    }

    /** The console summary: ns per call and traces per second. */
    public static String headline(MooResults r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "MooBench, depth %d, %,d calls x %d JVM(s) per configuration%s%n",
                r.settings.depth, r.settings.calls, r.settings.runs, r.settings.quick ? " (quick)" : ""));
        sb.append(String.format(Locale.ROOT, "%-9s %16s %14s %14s %14s %26s%n", "config", "traces/s (mean)", "trace ns mean",
                "trimmed", "median", "ns/call vs T mean|trim|med"));
        Map<String, Overheads.PerCall> vsT = Overheads.versusT(r.configs);
        for (MooResults.ConfigResult c : r.configs) {
            if (c.response == null) {
                sb.append(String.format(Locale.ROOT, "%-9s %s%n", c.name, "no successful run"));
                continue;
            }
            Overheads.PerCall p = vsT.get(c.name);
            sb.append(String.format(Locale.ROOT, "%-9s %16s %14.1f %14.1f %14.1f %26s%n", c.name, k(c.throughput.mean),
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

    // ------------------------------------------------------------------ SVG

    static final String[] COLORS = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"};

    /** One panel per configuration: the binned mean response time of its first successful run. */
    static String timelineSvg(MooResults r) {
        List<MooResults.ConfigResult> configs = new ArrayList<>();
        for (MooResults.ConfigResult c : r.configs) {
            if (firstOk(c) != null) {
                configs.add(c);
            }
        }
        int width = 900;
        int panel = 150;
        int left = 80;
        int right = 20;
        int top = 40;
        int gap = 30;
        int height = top + Math.max(1, configs.size()) * (panel + gap) + 30;
        StringBuilder svg = svgStart(width, height, "MooBench time series: mean response time per bin (ns, log scale), one run per configuration");
        if (configs.isEmpty()) {
            text(svg, left, top + 20, "no successful run", "start", 12);
        }
        for (int p = 0; p < configs.size(); p++) {
            MooResults.ConfigResult c = configs.get(p);
            MooResults.RunResult run = firstOk(c);
            double[] y = run.binMeansNs;
            int y0 = top + p * (panel + gap);
            int plotW = width - left - right;
            double lo = Double.MAX_VALUE;
            double hi = 0;
            for (double v : y) {
                if (v > 0) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            if (hi <= 0) {
                continue;
            }
            double logLo = Math.floor(Math.log10(lo));
            double logHi = Math.max(logLo + 1, Math.ceil(Math.log10(hi)));
            // the discarded warm-up half
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#e6e6e6\"/>%n",
                    left, y0, plotW / 2.0, panel));
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n",
                    left, y0, plotW, panel));
            for (double e = logLo; e <= logHi; e++) {
                double yy = y0 + panel - (e - logLo) / (logHi - logLo) * panel;
                svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ccc\"/>%n",
                        left, yy, left + plotW, yy));
                text(svg, left - 6, yy + 4, humanNs(Math.pow(10, e)), "end", 10);
            }
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < y.length; i++) {
                if (y[i] <= 0) {
                    continue;
                }
                double xx = left + (i + 0.5) * plotW / y.length;
                double yy = y0 + panel - (Math.log10(y[i]) - logLo) / (logHi - logLo) * panel;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", xx, yy));
            }
            svg.append("<polyline fill=\"none\" stroke=\"").append(COLORS[p % COLORS.length])
                    .append("\" stroke-width=\"1\" points=\"").append(points.toString().trim()).append("\"/>\n");
            text(svg, left + 6, y0 + 14, "warm-up (discarded)", "start", 10);
            text(svg, left + plotW - 6, y0 + 14, String.format(Locale.ROOT, "%s, run %d: measured mean %s ns, median %s ns",
                    c.name, run.run, f1(run.meanNs), f1(run.medianNs)), "end", 12);
            text(svg, left, y0 + panel + 14, "call 0", "start", 10);
            text(svg, left + plotW / 2.0, y0 + panel + 14, String.format(Locale.ROOT, "call %,d: measured half starts", run.calls / 2),
                    "middle", 10);
            text(svg, left + plotW, y0 + panel + 14, String.format(Locale.ROOT, "call %,d", run.calls), "end", 10);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** Overhead per trace against depth, with each configuration's least-squares line. */
    static String depthSvg(MooResults r) {
        List<Overheads.DepthCurve> curves = Overheads.depthCurves(r.depthSeries);
        int width = 900;
        int height = 520;
        int left = 90;
        int right = 260;
        int top = 40;
        int bottom = 60;
        int plotW = width - left - right;
        int plotH = height - top - bottom;
        double maxX = 1;
        double maxY = 1;
        double minY = 0;
        for (Overheads.DepthCurve c : curves) {
            for (int i = 0; i < c.depths.size(); i++) {
                maxX = Math.max(maxX, c.depths.get(i));
                maxY = Math.max(maxY, c.overheadTrimmedNs.get(i));
                minY = Math.min(minY, c.overheadTrimmedNs.get(i));
            }
        }
        double yStep = niceStep((maxY - minY) / 6);
        maxY = Math.ceil(maxY / yStep) * yStep;
        minY = Math.floor(minY / yStep) * yStep;
        double xStep = niceStep(maxX / 8);
        maxX = Math.ceil(maxX / xStep) * xStep;
        StringBuilder svg = svgStart(width, height,
                "Overhead per trace against recursion depth (trimmed mean minus T's, without the slowest 0.1% of calls)");
        double ymin = minY;
        double ymax = maxY;
        double xmax = maxX;
        java.util.function.DoubleUnaryOperator sx = x -> left + x / xmax * plotW;
        java.util.function.DoubleUnaryOperator sy = y -> top + plotH - (y - ymin) / (ymax - ymin) * plotH;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n",
                left, top, plotW, plotH));
        for (double y = minY; y <= maxY + yStep / 2; y += yStep) {
            double yy = sy.applyAsDouble(y);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    left, yy, left + plotW, yy));
            text(svg, left - 6, yy + 4, humanNs(y), "end", 10);
        }
        for (double x = 0; x <= maxX + xStep / 2; x += xStep) {
            double xx = sx.applyAsDouble(x);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>%n",
                    xx, top, xx, top + plotH));
            text(svg, xx, top + plotH + 16, String.format(Locale.ROOT, "%.0f", x), "middle", 10);
        }
        text(svg, left + plotW / 2.0, top + plotH + 40, "recursion depth (instrumented calls per trace)", "middle", 12);
        for (int i = 0; i < curves.size(); i++) {
            Overheads.DepthCurve c = curves.get(i);
            String color = COLORS[(i + 1) % COLORS.length];
            if (c.trimmedFit != null) {
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"5,3\"/>%n",
                        sx.applyAsDouble(0), sy.applyAsDouble(clamp(c.trimmedFit.at(0), ymin, ymax)), sx.applyAsDouble(xmax),
                        sy.applyAsDouble(clamp(c.trimmedFit.at(xmax), ymin, ymax)), color));
            }
            StringBuilder pts = new StringBuilder();
            for (int j = 0; j < c.depths.size(); j++) {
                double xx = sx.applyAsDouble(c.depths.get(j));
                double yy = sy.applyAsDouble(c.overheadTrimmedNs.get(j));
                svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>%n", xx, yy, color));
                pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", xx, yy));
            }
            svg.append("<polyline fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"1.5\" points=\"")
                    .append(pts.toString().trim()).append("\"/>\n");
            int ly = top + 10 + i * 40;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>%n",
                    left + plotW + 20, ly, color));
            text(svg, left + plotW + 38, ly + 10, c.config, "start", 12);
            if (c.trimmedFit != null) {
                text(svg, left + plotW + 38, ly + 26, String.format(Locale.ROOT, "%.1f ns/call, R² = %.4f", c.trimmedFit.slope,
                        c.trimmedFit.r2), "start", 11);
            }
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    static double niceStep(double raw) {
        if (raw <= 0 || Double.isNaN(raw)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    }

    private static StringBuilder svgStart(int width, int height, String title) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
                + " font-family=\"sans-serif\">%n", width, height, width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        text(svg, width / 2.0, 22, title, "middle", 14);
        return svg;
    }

    private static void text(StringBuilder svg, double x, double y, String s, String anchor, int size) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, escape(s)));
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static MooResults.RunResult firstOk(MooResults.ConfigResult c) {
        for (MooResults.RunResult run : c.runs) {
            if (run.ok && run.binMeansNs != null) {
                return run;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ formatting

    static String humanNs(double ns) {
        if (Math.abs(ns) >= 1e6) {
            return trim(ns / 1e6) + " ms";
        }
        if (Math.abs(ns) >= 1e3) {
            return trim(ns / 1e3) + " µs";
        }
        return trim(ns) + " ns";
    }

    private static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.1f", v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    static String k(double tracesPerSecond) {
        return String.format(Locale.ROOT, "%,.1fk", tracesPerSecond / 1000);
    }

    static String pm(double v, double ci) {
        return String.format(Locale.ROOT, "%.1f ± %.1f", v, ci);
    }

    static String f0(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    static String f1(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String count(Long v) {
        return v == null || v < 0 ? "–" : String.format(Locale.ROOT, "%,d", v);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).replace("|", "\\|");
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
