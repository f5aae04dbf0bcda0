package io.argus.perf.moobench.report;

import io.argus.perf.moobench.MooBenchMain;
import io.argus.perf.moobench.MooResults;
import io.argus.perf.moobench.RunAnalysis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's shape on synthetic results: every section and table, well-formed SVG, JSON that reads back. */
class MooReportTest {

    static final java.util.List<String> SECTIONS = java.util.List.of("Nanoseconds per instrumented call",
            "Throughput (traces per second)", "Response time of one trace (ns)", "Time series", "Recursion depth",
            "Spans", "Every JVM", "Setup");


    static MooResults synthetic() {
        MooResults r = new MooResults();
        r.startedAt = "2026-01-01T00:00:00Z";
        r.finishedAt = "2026-01-01T00:10:00Z";
        r.settings.calls = 2000;
        r.settings.depth = 10;
        r.settings.runs = 2;
        r.settings.bins = 20;
        r.settings.depths = List.of(1, 2, 4);
        r.settings.depthRuns = 1;
        r.settings.jvmOptions = List.of("-Xms512m");
        double[] perTrace = {70, 80, 680, 700, 1580, 1570, 2570};
        String[] names = {"T", "T+I", "T+I+C", "T+I+C+W", "T+I+C+W(all)", "otel-off", "otel-on"};
        int order = 0;
        for (int i = 0; i < names.length; i++) {
            r.configs.add(config(names[i], 10, perTrace[i], 2, ++order));
        }
        for (int d : r.settings.depths) {
            for (int i = 0; i < 4; i++) {
                r.depthSeries.add(config(names[i], d, 70 + (perTrace[i] - 70) * d / 10.0, 1, ++order));
            }
        }
        MooResults.RunResult failed = new MooResults.RunResult();
        failed.ok = false;
        failed.error = "exit status 1\nmore";
        failed.log = "logs/x.log";
        failed.order = ++order;
        r.configs.get(3).runs.add(failed);
        r.failures.add("T+I+C+W depth 10 run 3: exit status 1");
        return r;
    }

    static MooResults.ConfigResult config(String name, int depth, double perTrace, int runs, int order) {
        MooResults.ConfigResult c = new MooResults.ConfigResult();
        c.name = name;
        c.depth = depth;
        c.description = "synthetic " + name;
        c.jvmFlags = List.of("-Xms512m", "-Dflag=" + name);
        RunAnalysis.Pool pool = new RunAnalysis.Pool();
        for (int run = 1; run <= runs; run++) {
            long[] t = new long[2000];
            for (int i = 0; i < t.length; i++) {
                t[i] = i < 1000 ? (long) (perTrace * 5) : (long) perTrace + (i % 3);
            }
            MooResults.RunResult rr = new MooResults.RunResult();
            rr.run = run;
            rr.order = order * 10 + run;
            rr.ok = true;
            rr.pin = "cpu1 tid=1";
            rr.log = "logs/" + name + ".log";
            if (name.startsWith("T+I+C")) {
                rr.counters.put("argus.sentSpans", 1000L);
                rr.counters.put("argus.droppedSpans", 19000L);
                boolean all = name.endsWith("(all)");
                rr.spansSentPerSecond = all ? 1_250_000.0 : 80_000.0;
                rr.dropShare = all ? 0.0 : 0.95;
            }
            RunAnalysis.analyze(t, 20, rr, pool);
            c.runs.add(rr);
        }
        pool.finish(c);
        return c;
    }

    @Test
    void writesEverySectionAndWellFormedCharts(@TempDir Path dir) throws Exception {
        MooResults r = synthetic();
        MooBenchMain.JSON.writeValue(dir.resolve("moobench.json").toFile(), r);
        MooResults back = MooBenchMain.JSON.readValue(dir.resolve("moobench.json").toFile(), MooResults.class);
        assertThat(back.configs).hasSize(7);
        assertThat(back.configs.get(2).response.mean).isEqualTo(r.configs.get(2).response.mean);
        assertThat(back.configs.get(2).runs.get(0).binMeansNs).hasSize(20);

        MooReport.write(back, dir);
        String md = Files.readString(dir.resolve("moobench.md"));
        for (String section : SECTIONS) {
            assertThat(md).contains("\n## " + section + "\n");
        }
        assertThat(md).contains("| I | instrumentation, probe deactivated", "| C | collecting", "| W | writing");
        // W(all) = (1580 - 680) / 10 = 90 ns per call, beside its spans per second and its drop share
        assertThat(md).containsPattern("\\| W\\(all\\) \\| writing every span[^|]*\\| 90\\.0 ± [^|]*\\| [^|]*\\| [^|]*\\| 1\\.25M \\| 0\\.0% \\|");
        assertThat(md).containsPattern("\\| W \\| writing to the collector[^\\n]*\\| 80k \\| 95\\.0% \\|");
        assertThat(md).containsPattern("\\| I \\| [^\\n]*\\| — \\| — \\|");
        assertThat(md).contains("| Mean |", "| 95% CI |", "| Q1 |", "| Median |", "| Q3 |");
        assertThat(md).contains("| T+I+C | ").contains("Kieker, no data collection: ≈42 ns").contains("≤ 25");
        assertThat(md).contains("FAILED: exit status 1 ([log](logs/x.log))");
        assertThat(md).contains("![binned response time of one run per configuration](timeline.svg)")
                .contains("![overhead per trace against recursion depth](depth.svg)");
        // the C portion: (680 + 1 - 80 - 1) / 10 = 60 ns per call, and a straight line over depth
        assertThat(md).containsPattern("\\| C \\| collecting[^|]*\\| 60\\.0 ± ");
        assertThat(md).containsPattern("\\| T\\+I\\+C \\| [^\\n]*\\| 61\\.00 \\| -?0\\.0 \\| 1\\.0000 \\|");
        // every table row has the header's number of cells
        String[] lines = md.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].startsWith("|---") || lines[i].startsWith("|---:")) {
                long cells = lines[i - 1].chars().filter(ch -> ch == '|').count();
                for (int j = i + 1; j < lines.length && lines[j].startsWith("|"); j++) {
                    assertThat(lines[j].replace("\\|", "").chars().filter(ch -> ch == '|').count())
                            .as("row " + lines[j] + " under " + lines[i - 1]).isEqualTo(cells);
                }
            }
        }
        for (String svg : List.of("timeline.svg", "depth.svg")) {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve(svg).toFile());
            assertThat(doc.getDocumentElement().getNodeName()).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("polyline").getLength()).isPositive();
        }
        String timeline = Files.readString(dir.resolve("timeline.svg"));
        assertThat(timeline).contains("warm-up (discarded)").contains("otel-on, run 1");
        assertThat(Files.readString(dir.resolve("depth.svg"))).contains("R² = 1.0000");
        assertThat(MooReport.headline(back)).contains("portion C: 60.0").contains("depth series T+I+C: slope 61.00");
    }

    @Test
    void humanUnitsAndSteps() {
        assertThat(MooFormat.humanNs(100)).isEqualTo("100 ns");
        assertThat(MooFormat.humanNs(1500)).isEqualTo("1.5 µs");
        assertThat(MooFormat.humanNs(1e7)).isEqualTo("10 ms");
        assertThat(Charts.niceStep(37)).isEqualTo(50);
        assertThat(Charts.niceStep(0.7)).isEqualTo(1);
        assertThat(MooFormat.k(1_176_500)).isEqualTo("1,176.5k");
    }
}
