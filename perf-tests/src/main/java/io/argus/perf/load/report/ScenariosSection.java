package io.argus.perf.load.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ScenarioResult;

import java.util.List;

/** Each scenario with the exact JVM options it adds. */
final class ScenariosSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Scenarios and agent settings");
        md.line("The exact JVM options each scenario adds to the `front` process (the `back` process gets the same with "
                + "its own service name). The collector port is chosen per run.");
        md.line("");
        for (ScenarioResult s : r.scenarios) {
            md.line("- **" + s.name + "** (" + s.agent + "): " + s.description);
            List<String> opts = s.jvmOptions.getOrDefault("front", List.of());
            md.line("");
            md.line("  ```");
            md.line("  " + (opts.isEmpty() ? "(no options)" : String.join(" ", opts)));
            md.line("  ```");
        }
        if (r.scenarios.stream().anyMatch(s -> s.name.equals("jvm-only")) && !r.settings.argusPlugins.isEmpty()) {
            md.line("");
            md.line("Argus plugins (from agent/plugins/): " + String.join(", ", r.settings.argusPlugins)
                    + "; jvm-only switches off all but jvm.");
        }
        md.line("");
    }
}
