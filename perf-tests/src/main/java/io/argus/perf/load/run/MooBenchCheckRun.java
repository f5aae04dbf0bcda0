package io.argus.perf.load.run;

import io.argus.perf.harness.ArgusHome;
import io.argus.perf.load.model.RunResults.MooBenchCheck;
import io.argus.perf.load.model.RunResults.MooBenchConfig;
import io.argus.perf.moobench.MooBenchMain;
import io.argus.perf.moobench.MooBenchOptions;
import io.argus.perf.moobench.MooResults;
import io.argus.perf.moobench.Overheads;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-call regression check every perf run ends with: a short MooBench configuration (no agent,
 * the probe deactivated, collecting; one fresh JVM each of {@value #CALLS} calls at depth 10, the
 * first half thrown away; {@value #QUICK_CALLS} in a {@code --quick} run, as {@code argus-moobench
 * --quick}), so that a change in what one instrumented call costs shows in the report beside the
 * start-up footprint. Its own report goes to {@code moobench/} in the report folder.
 */
public final class MooBenchCheckRun {

    static final int CALLS = 1_000_000;
    static final int QUICK_CALLS = 200_000;
    static final List<String> CONFIGS = List.of("T", "T+I", "T+I+C");

    private final ArgusHome home;
    private final Path java;
    private final Path out;
    private final int calls;

    /** @param quick the fewer calls of a {@code --quick} run */
    public MooBenchCheckRun(ArgusHome home, Path java, Path out, boolean quick) {
        this.home = home;
        this.java = java;
        this.out = out;
        this.calls = quick ? QUICK_CALLS : CALLS;
    }

    /** The arguments given to argus-moobench. */
    List<String> arguments() {
        return List.of("--configs", String.join(",", CONFIGS), "--runs", "1", "--depths", "none",
                "--calls", Integer.toString(calls), "--out", out.resolve("moobench").toString(),
                "--argus-home", String.valueOf(home.root()), "--java", java.toString());
    }

    /** Runs it; a failure is recorded in the check, never thrown. */
    public MooBenchCheck run() {
        MooBenchCheck c = new MooBenchCheck();
        c.arguments = new ArrayList<>(arguments());
        c.arguments.replaceAll(a -> a.startsWith(out.toString()) ? out.relativize(Path.of(a)).toString() : a);
        c.depth = 10;
        c.calls = calls;
        long start = System.nanoTime();
        try {
            Files.createDirectories(out.resolve("logs"));
            MooBenchOptions options = MooBenchOptions.parse(arguments().toArray(String[]::new));
            MooResults results;
            // its console goes to a log of its own; the harness says one line
            try (OutputStream file = Files.newOutputStream(out.resolve("logs/moobench.log"));
                 PrintStream console = new PrintStream(file, true, StandardCharsets.UTF_8)) {
                results = MooBenchMain.runFor(options, console);
            }
            summarize(results, c);
            c.report = "moobench/moobench.md";
        } catch (Exception | LinkageError e) {
            c.error = e.getMessage() == null ? e.toString() : e.getMessage();
        }
        c.seconds = (System.nanoTime() - start) / 1e9;
        return c;
    }

    static void summarize(MooResults results, MooBenchCheck c) {
        for (MooResults.ConfigResult r : results.configs) {
            MooBenchConfig mc = new MooBenchConfig();
            mc.name = r.name;
            mc.runs = (int) r.runs.stream().filter(x -> x.ok).count();
            if (r.response != null) {
                mc.meanNs = r.response.mean;
                mc.ci95Ns = r.response.ci95;
                mc.medianNs = r.response.median;
            }
            c.configs.add(mc);
            c.depth = r.depth;
        }
        for (Map.Entry<String, Overheads.PerCall> e : Overheads.portions(results.configs).entrySet()) {
            c.perCallMeanNs.put(e.getKey(), e.getValue().meanNs);
            c.perCallMedianNs.put(e.getKey(), e.getValue().medianNs);
        }
        if (!results.failures.isEmpty()) {
            c.error = String.join("; ", results.failures);
        }
    }

    /** One line for the console. */
    public static String describe(MooBenchCheck c) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%.0f s, per instrumented call:", c.seconds));
        c.perCallMedianNs.forEach((k, v) -> b.append(String.format(Locale.ROOT, " %s median %.1f ns (mean %.1f)", k, v,
                c.perCallMeanNs.get(k))));
        return b.toString();
    }
}
