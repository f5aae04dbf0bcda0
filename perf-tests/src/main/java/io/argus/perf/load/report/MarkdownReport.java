package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;

import java.util.List;

/** report.md: the title, then one renderer per section, in the order of {@link #SECTIONS}. */
public final class MarkdownReport {

    public static final List<String> SECTIONS = List.of("Headline", "Method", "Machine", "Scenarios and agent settings",
            "Startup", "Cost per request", "Regression checks", "Closed loop", "Gatling", "Resources", "Collector",
            "Statistics vs baseline", "Errors and outliers");

    private static final List<Section<RunResults>> RENDERERS = List.of(new HeadlineSection(), new MethodSection(),
            new MachineSection(), new ScenariosSection(), new StartupSection(), new CostSection(), new RegressionSection(),
            new ClosedLoopSection(), new GatlingSection(), new ResourcesSection(), new CollectorSection(),
            new StatisticsSection(), new ErrorsSection());

    private MarkdownReport() {
    }

    public static String render(RunResults r) {
        RunResults.Settings st = r.settings;
        Markdown md = new Markdown();
        md.line("# Argus overhead report");
        md.line("");
        md.line("Target **" + st.target + "** (endpoint `" + st.endpoint + "`), mode **" + st.mode + "**, "
                + r.scenarios.size() + " scenario(s), started " + r.startedAt + ", took "
                + Fmt.num(r.durationSeconds / 60, 1) + " min. Raw samples: `results.json`; charts: `report.html`.");
        md.line("");
        for (Section<RunResults> section : RENDERERS) {
            section.render(r, md);
        }
        return md.toString();
    }
}
