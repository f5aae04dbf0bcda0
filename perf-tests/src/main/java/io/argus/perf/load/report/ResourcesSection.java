package io.argus.perf.load.report;

import io.argus.perf.harness.report.Fmt;
import io.argus.perf.harness.report.Markdown;
import io.argus.perf.harness.report.Section;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ProcessResources;
import io.argus.perf.load.model.RunResults.ScenarioResult;

/** CPU, memory, threads and GC per process. */
final class ResourcesSection implements Section<RunResults> {

    @Override
    public void render(RunResults r, Markdown md) {
        md.section("Resources");
        md.line("Per process, from the load-phase launch. CPU (/proc/<pid>/stat) and allocation (ThreadMXBean) per request "
                + "cover the measured closed-loop rounds (per round, with intervals: *Cost per request*); memory, threads "
                + "and totals are taken at the end of the load phase. The threads include the harness's JMX connection "
                + "(a few, in every scenario alike).");
        md.line("");
        md.row("Scenario", "Process", "CPU µs/request", "CPU ms (measured)", "Alloc B/request", "Peak RSS MB", "RSS MB",
                "Heap after GC MB", "Threads", "GC count (measured / total)", "GC ms (measured / total)", "Note");
        md.sep(12);
        for (ScenarioResult s : r.scenarios) {
            for (ProcessResources p : s.resources) {
                md.row(s.name, p.service, Fmt.num(p.cpuUsPerRequest, 1), Fmt.num(p.cpuMsMeasured, 0),
                        Fmt.num(p.allocBytesPerRequest, 0),
                        Fmt.num(p.vmHwmKb / 1024.0, 1), Fmt.num(p.vmRssKb / 1024.0, 1),
                        p.heapUsedAfterGcKb == null ? Fmt.NONE : Fmt.num(p.heapUsedAfterGcKb / 1024.0, 1),
                        Integer.toString(p.threads),
                        str(p.gcCountMeasured) + " / " + str(p.gcCountTotal),
                        Fmt.num(p.gcTimeMsMeasured, 1) + " / " + Fmt.num(p.gcTimeMsTotal, 1),
                        p.note == null ? "" : Fmt.cell(p.note));
            }
        }
        md.line("");
    }

    private static String str(Long v) {
        return v == null ? Fmt.NONE : Long.toString(v);
    }
}
