package io.argus.perf.moobench.report;

import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.moobench.MooResults;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.argus.perf.moobench.report.MooFormat.nz;

/** The machine, the pinning, the agents and the flags of every configuration. */
final class SetupSection implements Section<MooResults> {

    @Override
    public void render(MooResults r, Markdown md) {
        MooResults.Settings s = r.settings;
        md.append("## Setup\n\n");
        MooResults.Machine m = r.machine;
        md.append("| | |\n|---|---|\n");
        md.append("| machine | ").append(m.cores).append(" cores, ").append(String.format(Locale.ROOT, "%,d", m.memoryMb))
                .append(" MB, ").append(nz(m.cpuModel)).append(", clock source ").append(nz(m.clockSource)).append(" |\n");
        md.append("| system | ").append(nz(m.kernel)).append(" |\n");
        md.append("| benchmark JVMs | ").append(nz(m.benchJava)).append(" |\n");
        md.append("| controller | ").append(nz(m.controllerJava)).append(" |\n");
        md.append("| load average (1, 5, 15 min) | at start ").append(nz(m.loadAverageAtStart)).append(", at end ")
                .append(nz(m.loadAverageAtEnd)).append(" |\n");
        md.append("| pinning | ").append(s.pinned ? "the benchmark thread alone on cpu" + s.benchCpu
                + " (taskset -p from inside its JVM); the rest of that JVM (JIT, GC, agent threads) and the collector on cpu"
                + s.otherCpu : "none").append(" |\n");
        md.append("| JVM options (all) | `").append(String.join(" ", s.jvmOptions)).append("` |\n");
        md.append("| traced method | `").append(nz(s.tracedMethod)).append("` |\n");
        if (s.agentDir != null) {
            md.append("| Argus agent | ").append(s.agentDir).append(", plugins: ").append(String.join(", ", s.agentPlugins)).append(" |\n");
        }
        if (s.otelAgent != null) {
            md.append("| OpenTelemetry agent | ").append(s.otelAgent).append(" |\n");
        }
        if (s.collector != null) {
            md.append("| collector | ").append(s.collector).append(", a fresh one with a fresh data folder per T+I+C+W and T+I+C+W(all) JVM |\n");
        }
        md.append("\n| configuration | what | agent flags |\n|---|---|---|\n");
        for (MooResults.ConfigResult c : r.configs) {
            List<String> flags = new ArrayList<>(c.jvmFlags);
            flags.removeAll(s.jvmOptions);
            md.append("| ").append(c.name).append(" | ").append(nz(c.description)).append(" | `")
                    .append(flags.isEmpty() ? "(none)" : String.join(" ", flags)).append("` |\n");
        }
        md.append('\n');
    }
}
