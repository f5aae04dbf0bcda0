package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;

import static io.argus.perf.moobench.report.MooFormat.oneLine;

/** The runs that failed. */
final class FailuresSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        if (!r.failures.isEmpty()) {
            md.append("## Failures\n\n");
            r.failures.forEach(f -> md.append("- ").append(oneLine(f)).append('\n'));
            md.append('\n');
        }
    }
}
