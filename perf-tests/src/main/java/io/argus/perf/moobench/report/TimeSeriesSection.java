package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;

import java.util.Locale;

/** The time-series chart of one run per configuration. */
final class TimeSeriesSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        MooResults.Settings s = r.settings;
        md.append("## Time series\n\n![binned response time of one run per configuration](timeline.svg)\n\n");
        md.append(String.format(Locale.ROOT, "Mean response time of each of the %d bins of one run per configuration (log scale)."
                + " The shaded first half is the warm-up that is thrown away.%n%n", s.bins));
    }
}
