package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.MooBenchCheck;
import io.argus.perf.load.model.RunResults.MooBenchConfig;

import java.util.Properties;

/**
 * MooBench's cost per instrumented call from the short run at the end of the perf run: per configuration the time
 * of a trace, then the portions I (probe deactivated) and C (collecting) per call, each beside the reference figure
 * of {@value #PREVIOUS}. Per-call nanoseconds move little with the machine's load when the benchmark thread is
 * pinned; a change of tens of ns is a change in the agent.
 */
final class MooBenchCheckSection implements Section<RunResults> {

    static final String PREVIOUS = "moobench-previous.properties";
    static final String TITLE = "Per-call cost (MooBench)";

    private final Properties previous;

    MooBenchCheckSection() {
        this(PreviousFigures.load(PREVIOUS));
    }

    MooBenchCheckSection(Properties previous) {
        this.previous = previous;
    }

    @Override
    public void render(RunResults r, Markdown md) {
        md.line("### " + TITLE);
        md.line("");
        MooBenchCheck m = r.moobench;
        if (m == null) {
            md.line("Not run (`--moobench none`).");
            md.line("");
            return;
        }
        md.line("`argus-moobench " + String.join(" ", m.arguments) + "` (" + Fmt.num(m.seconds, 0) + " s): recursion depth "
                + m.depth + ", method time 0, one fresh JVM of " + Fmt.num((double) m.calls, 0) + " calls per configuration, "
                + "the first half thrown away. Its own report: " + (m.report == null ? Fmt.NONE : "`" + m.report + "`") + ". "
                + "\"Reference\" is `perf-tests/src/main/resources/io/argus/perf/load/report/" + PREVIOUS + "`; not a "
                + "pass/fail check (the targets: I ≤ 1 ns, C ≤ 25 ns beyond the clock reads).");
        md.line("");
        if (m.error != null) {
            md.line("**Failed:** " + Fmt.cell(m.error));
            md.line("");
        }
        md.row("Configuration", "JVMs", "Mean ns/trace", "95% CI ±", "Median ns/trace");
        md.sep(5);
        for (MooBenchConfig c : m.configs) {
            md.row(c.name, Integer.toString(c.runs), Fmt.num(c.meanNs, 1), Fmt.num(c.ci95Ns, 1), Fmt.num(c.medianNs, 1));
        }
        md.line("");
        md.row("Portion", "Mean ns/call", "Reference", "Median ns/call", "Reference");
        md.sep(5);
        for (String portion : m.perCallMeanNs.keySet()) {
            md.row(portion, Fmt.num(m.perCallMeanNs.get(portion), 1), reference(portion + ".meanNs"),
                    Fmt.num(m.perCallMedianNs.get(portion), 1), reference(portion + ".medianNs"));
        }
        if (m.perCallMeanNs.isEmpty()) {
            md.row("(no portion: a configuration failed)", "", "", "", "");
        }
        md.line("");
    }

    private String reference(String key) {
        String v = previous.getProperty(key);
        return v == null || v.isBlank() ? Fmt.NONE : v.trim();
    }
}
