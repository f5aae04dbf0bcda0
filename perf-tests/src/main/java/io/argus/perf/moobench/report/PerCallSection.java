package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;
import io.argus.perf.moobench.Overheads;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import static io.argus.perf.moobench.report.MooFormat.f1;
import static io.argus.perf.moobench.report.MooFormat.pm;

/** Nanoseconds per instrumented call: the portions I, C and W, and every configuration against T. */
final class PerCallSection implements Section<MooResults> {

    /** The figures of the anchors file (shared/anchors.md), per instrumented call at depth 10. */
    static final Map<String, String[]> PUBLISHED = new LinkedHashMap<>();
    static final Map<String, String> TARGETS = new LinkedHashMap<>();

    static {
        PUBLISHED.put("T+I", new String[] {"Kieker, probe deactivated", "≈0.4"});
        PUBLISHED.put("T+I+C", new String[] {"Kieker, no data collection", "≈42"});
        PUBLISHED.put("T+I+C+W", new String[] {"Kieker, binary file writer", "≈100"});
        PUBLISHED.put("T+I+C+W(all)", new String[] {"Kieker, binary file writer (writes every record)", "≈100"});
        PUBLISHED.put("otel-off", new String[] {"OpenTelemetry, sampler off", "≈145"});
        PUBLISHED.put("otel-on", new String[] {"OpenTelemetry, Zipkin export", "≈250"});
        TARGETS.put("T+I", "≤ 1");
        TARGETS.put("T+I+C", "≤ 25");
        TARGETS.put("T+I+C+W", "≤ 50");
        TARGETS.put("T+I+C+W(all)", "≤ 50");
    }

    static String perSecond(double v) {
        return v >= 1e6 ? String.format(Locale.ROOT, "%.2fM", v / 1e6) : String.format(Locale.ROOT, "%,.0fk", v / 1e3);
    }

    static String share(double v) {
        return String.format(Locale.ROOT, "%.1f%%", v * 100);
    }

    @Override
    public void render(MooResults r, Markdown md) {
        MooResults.Settings s = r.settings;
        md.append("## Nanoseconds per instrumented call\n\n");
        md.append(String.format(Locale.ROOT, "Depth %d, measured half of every run. *Mean ± 95%% CI*: from the mean response"
                + " time of a trace, MooBench's measure. *Trimmed*: from the mean without the slowest 0.1%% of the calls,"
                + " which a few descheduled calls or GC pauses cannot move. *Median*: from the median response time"
                + " (System.nanoTime() ticks by 10 ns here, so at depth 10 it moves in steps of 1 ns per call).%n%n", s.depth));
        Map<String, Overheads.PerCall> portions = Overheads.portions(r.configs);
        if (!portions.isEmpty()) {
            md.append("| portion | measured as | mean ± 95% CI (ns) | trimmed (ns) | median (ns) | spans sent / s | dropped |\n"
                    + "|---|---|---:|---:|---:|---:|---:|\n");
            String[] what = {"I", "instrumentation, probe deactivated: T+I − T", "C", "collecting (spans built, discarded): T+I+C − T+I",
                    "W", "writing to the collector, a full queue drops: T+I+C+W − T+I+C",
                    "W(all)", "writing every span, the thread waits for room: T+I+C+W(all) − T+I+C"};
            for (int i = 0; i < what.length; i += 2) {
                Overheads.PerCall p = portions.get(what[i]);
                if (p != null) {
                    Overheads.SpanRate rate = what[i].equals("I") ? null
                            : Overheads.spanRate(r.config(Overheads.configOf(what[i])));
                    md.append("| ").append(what[i]).append(" | ").append(what[i + 1]).append(" | ")
                            .append(pm(p.meanNs, p.ci95)).append(" | ").append(f1(p.trimmedNs)).append(" | ")
                            .append(f1(p.medianNs)).append(" | ").append(rate == null ? "—" : perSecond(rate.sentPerSecond()))
                            .append(" | ").append(rate == null ? "—" : share(rate.dropShare())).append(" |\n");
                }
            }
            md.append('\n');
            md.append("*Spans sent / s* and *dropped*: the agent's counters over the measured half, the mean of the runs"
                    + " (C: spans the discarding exporter took; W and W(all): spans written to the collector's socket;"
                    + " dropped: the share of the spans made that the full queue dropped). A W that drops most spans"
                    + " costs a failed offer per dropped span, not a write: W(all) is the cost of writing every span.\n\n");
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
    }
}
