package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;

/** The machine and the inputs of the run. */
final class MachineSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        RunResults.Machine m = r.machine;
        md.section("Machine");
        md.row("Fact", "Value");
        md.sep(2);
        md.row("CPU cores", Integer.toString(m.cores));
        md.row("Memory", Fmt.num((double) m.memoryMb, 0) + " MB");
        md.row("CPU", Fmt.cell(m.cpuModel));
        md.row("OS / kernel", Fmt.cell(m.os + " / " + m.kernel));
        md.row("Target JDK", Fmt.cell(m.targetJava));
        md.row("Harness JDK", Fmt.cell(m.harnessJava));
        md.row("Clock ticks/s (CPU time unit)", Long.toString(m.clockTicksPerSecond));
        md.row("Load average (1/5/15 min) at start / end", Fmt.cell(m.loadAverageStart) + " / " + Fmt.cell(m.loadAverageEnd)
                + (busy(m) ? " — **the machine was busy with other work: treat every figure with caution**" : ""));
        md.row("Placement", placement(r.settings));
        md.row("Argus agent", Fmt.cell(m.argusVersion));
        md.row("Gatling", Fmt.cell(m.gatlingVersion));
        md.row("Argus home", "`" + Fmt.cell(r.settings.argusHome) + "`");
        md.row("Peer agents", "`" + Fmt.cell(r.settings.peersDir) + "`");
        md.row("Extra JVM options", r.settings.extraJvmOptions.isEmpty() ? "none"
                : "`" + Fmt.cell(String.join(" ", r.settings.extraJvmOptions)) + "`");
        md.line("");
    }

    /** The placement in a few words: which CPUs the targets, and the collector plus the load, ran on. */
    static String placement(RunResults.Settings st) {
        if (st.targetCpus == null) {
            return "shared: nothing pinned; targets, collector and load generator share all CPUs";
        }
        return "separate (`taskset`): target processes on CPU " + st.targetCpus + "; collector, closed loop and Gatling "
                + "on CPU " + st.loadCpus;
    }

    /** More runnable work than cores at start or end (1-minute load average). */
    static boolean busy(RunResults.Machine m) {
        for (String l : new String[]{m.loadAverageStart, m.loadAverageEnd}) {
            if (l != null && m.cores > 0) {
                try {
                    if (Double.parseDouble(l.split(" ")[0]) > m.cores) {
                        return true;
                    }
                } catch (NumberFormatException ignored) {
                    // unknown
                }
            }
        }
        return false;
    }
}
