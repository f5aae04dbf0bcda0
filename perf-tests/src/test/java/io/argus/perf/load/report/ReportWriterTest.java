package io.argus.perf.load.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.perf.load.Scenario;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.perf.load.model.RunResults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {

    @Test
    void writesParsableJsonWithEveryRawSample(@TempDir Path dir) throws Exception {
        RunResults r = SyntheticResults.make();
        ReportWriter.write(r, dir);
        JsonNode root = new ObjectMapper().readTree(dir.resolve(ReportWriter.JSON).toFile());
        assertThat(root.path("schema").asText()).isEqualTo(RunResults.SCHEMA);
        assertThat(root.path("scenarios")).hasSize(Scenario.ALL.size());
        for (JsonNode s : root.path("scenarios")) {
            assertThat(s.path("startup")).hasSize(SyntheticResults.STARTUP_RUNS);
            assertThat(s.path("startup").get(0).path("processes")).hasSize(2);
            JsonNode rounds = s.path("closedLoop").path("rounds");
            assertThat(rounds).hasSize(SyntheticResults.ROUNDS);
            assertThat(rounds.get(0).path("latenciesUs")).hasSize(SyntheticResults.ROUND_SIZE);
            for (String f : new String[]{"minMs", "maxMs", "avgMs", "p95Ms", "p99Ms", "totalMs", "qps", "errors"}) {
                assertThat(rounds.get(1).has(f)).as(f).isTrue();
            }
            assertThat(s.path("gatling").path("qps").asDouble()).isPositive();
            assertThat(s.path("resources")).hasSize(2);
        }
        assertThat(root.path("comparisons")).hasSize(Scenario.ALL.size() - 1);
        JsonNode qps = null;
        for (JsonNode m : root.path("comparisons").get(0).path("metrics")) {
            if (m.path("metric").asText().equals("qps")) {
                qps = m;
            }
        }
        assertThat(qps).isNotNull();
        assertThat(qps.path("pValue").isNumber()).isTrue();
        assertThat(qps.path("cohensD").isNumber()).isTrue();

        // and it reads back into the model
        RunResults back = ReportWriter.read(dir.resolve(ReportWriter.JSON));
        assertThat(back.scenarios).hasSize(Scenario.ALL.size());
        assertThat(back.scenario("default-100").collector.tracesStored).isEqualTo(5302L);
        assertThat(back.scenario("otel").closedLoop.rounds.get(2).latenciesUs)
                .containsExactly(r.scenario("otel").closedLoop.rounds.get(2).latenciesUs);
    }

    @Test
    void markdownHasEverySectionAndEveryScenario(@TempDir Path dir) throws Exception {
        ReportWriter.write(SyntheticResults.make(), dir);
        String md = Files.readString(dir.resolve(ReportWriter.MARKDOWN));
        int last = -1;
        for (String section : MarkdownReport.SECTIONS) {
            int at = md.indexOf("\n## " + section + "\n");
            assertThat(at).as(section).isGreaterThan(last);
            last = at;
        }
        for (Scenario s : Scenario.ALL) {
            assertThat(md).contains("| " + s.name() + " |").contains("### " + s.name());
        }
        assertThat(md).contains("-Dfoo=<bar>", "Test CPU \\| with a pipe", "PASS");
        // the regression section holds both checks
        String regression = md.substring(md.indexOf("## Regression checks"), md.indexOf("## Closed loop"));
        assertThat(regression).contains("### Start-up footprint", "### Per-call cost (MooBench)", "| C | 94.2 | 115.5 |");
        // every table row of a table has the same number of cells as its header
        String[] lines = md.split("\n");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].startsWith("|---")) {
                int cols = cells(lines[i - 1]);
                for (int k = i + 1; k < lines.length && lines[k].startsWith("|"); k++) {
                    assertThat(cells(lines[k])).as(lines[k]).isEqualTo(cols);
                }
            }
        }
    }

    @Test
    void htmlHasEveryChartAsWellFormedInlineSvg(@TempDir Path dir) throws Exception {
        ReportWriter.write(SyntheticResults.make(), dir);
        String html = Files.readString(dir.resolve(ReportWriter.HTML));
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        assertThat(html).doesNotContain("<script", "src=\"http", "href=\"http");
        for (String id : HtmlReport.CHARTS) {
            assertThat(html).contains("<svg id=\"" + id + "\"");
        }
        for (String section : MarkdownReport.SECTIONS) {
            assertThat(html).contains(">" + section + "</h2>");
        }
        Matcher svg = Pattern.compile("<svg .*?</svg>", Pattern.DOTALL).matcher(html);
        int count = 0;
        while (svg.find()) {
            count++;
            DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(svg.group().getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(count).isEqualTo(HtmlReport.CHARTS.size());
        assertThat(html).contains("&lt;bar&gt;").doesNotContain("<bar>");
        assertThat(html.split("<table>", -1).length).isEqualTo(html.split("</table>", -1).length);
    }

    @Test
    void thePlacementIsStatedAndTheCollectorCostStandsBesideTheApplications(@TempDir Path dir) throws Exception {
        RunResults r = SyntheticResults.make();
        io.argus.perf.load.run.Placement separate = io.argus.perf.load.run.Placement.separate(2);
        r.settings.placement = separate.name();
        r.settings.targetCpus = separate.targetCpus();
        r.settings.loadCpus = separate.loadCpus();
        r.settings.placementNote = separate.describe();
        ReportWriter.write(r, dir);
        String md = Files.readString(dir.resolve(ReportWriter.MARKDOWN));
        String headline = md.substring(md.indexOf("## Headline"), md.indexOf("## Method"));
        assertThat(headline).contains("Placement: separate (`taskset`): target processes on CPU 0; collector, closed "
                + "loop and Gatling on CPU 1").contains("`--placement shared` gives the co-located view");
        assertThat(md.substring(md.indexOf("## Method"))).contains("Placement **separate**", "Collector cost");
        assertThat(md).contains("| Placement | separate (`taskset`)");
        assertThat(md).contains("| Collector CPU µs / span |").contains("| default-100 | 900 | 21,208 | 42.4 | ");
        assertThat(Files.readString(dir.resolve(ReportWriter.HTML))).contains("Placement <strong>separate</strong>");
        RunResults back = ReportWriter.read(dir.resolve(ReportWriter.JSON));
        assertThat(back.settings.placement).isEqualTo("separate");
        assertThat(back.settings.targetCpus).isEqualTo("0");
        assertThat(back.settings.loadCpus).isEqualTo("1");
        assertThat(back.scenario("default-100").collector.cpuUsPerSpan).isCloseTo(42.4, org.assertj.core.data.Offset.offset(0.1));

        ReportWriter.write(SyntheticResults.make(), dir);
        assertThat(Files.readString(dir.resolve(ReportWriter.MARKDOWN))).contains("Placement: shared: nothing pinned");
    }

    @Test
    void partialResultsStillRender(@TempDir Path dir) throws Exception {
        RunResults r = SyntheticResults.make();
        r.scenarios.get(1).closedLoop = null;
        r.scenarios.get(1).gatling = null;
        r.scenarios.get(1).resources.clear();
        r.scenarios.get(2).startup.clear();
        r.scenarios.get(1).status = "failed";
        r.comparisons = io.argus.perf.load.stats.Analysis.compare(r);
        ReportWriter.write(r, dir);
        assertThat(Files.readString(dir.resolve(ReportWriter.MARKDOWN))).contains("jvm-only (failed)");
        assertThat(Files.readString(dir.resolve(ReportWriter.HTML))).contains("chart-qps-rounds");
    }

    private static int cells(String row) {
        return row.replace("\\|", "").split("\\|", -1).length - 2;
    }
}
