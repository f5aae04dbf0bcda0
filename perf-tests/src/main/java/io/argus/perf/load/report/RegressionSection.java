package io.argus.perf.load.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;

/**
 * The regression checks of every run, {@code --quick} included: figures that other work on the machine barely
 * moves, each beside the previous release's, for the author of a change to explain: the start-up footprint and
 * MooBench's cost per instrumented call.
 */
final class RegressionSection implements Section<RunResults> {

    static final String TITLE = "Regression checks";

    private final StartupFootprintSection footprint;
    private final MooBenchCheckSection moobench;

    RegressionSection() {
        this(new StartupFootprintSection(), new MooBenchCheckSection());
    }

    RegressionSection(StartupFootprintSection footprint, MooBenchCheckSection moobench) {
        this.footprint = footprint;
        this.moobench = moobench;
    }

    @Override
    public void render(RunResults r, Markdown md) {
        md.section(TITLE);
        footprint.render(r, md);
        moobench.render(r, md);
    }
}
