package io.argus.perf.load;

import io.argus.perf.harness.HostFacts;
import io.argus.perf.harness.proc.ProcStats;
import io.argus.perf.load.model.RunResults.Machine;

import java.nio.file.Path;

/** Cores, memory, CPU model, kernel and the JDKs, for the report. */
final class MachineFacts {

    private MachineFacts() {
    }

    static Machine collect(Path targetJava) {
        Machine m = new Machine();
        m.cores = Runtime.getRuntime().availableProcessors();
        m.memoryMb = memTotalMb();
        m.cpuModel = HostFacts.cpuModel();
        m.os = System.getProperty("os.name") + " " + System.getProperty("os.arch");
        m.kernel = System.getProperty("os.version");
        m.harnessJava = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.home") + ")";
        m.targetJava = HostFacts.javaVersion(targetJava);
        m.clockTicksPerSecond = ProcStats.clockTicksPerSecond();
        m.gatlingVersion = gatlingVersion();
        m.loadAverageStart = HostFacts.loadAverage();
        return m;
    }

    private static long memTotalMb() {
        long mb = HostFacts.memTotalMb();
        return mb > 0 ? mb : Runtime.getRuntime().maxMemory() / (1024 * 1024);
    }

    private static String gatlingVersion() {
        return OwnManifest.attribute("Argus-Gatling-Version", "3.15.x");
    }
}
