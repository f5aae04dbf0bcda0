package io.argus.perf.load;

import io.argus.perf.load.model.RunResults.Machine;
import io.argus.perf.harness.proc.ProcStats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Cores, memory, CPU model, kernel and the JDKs, for the report. */
final class MachineFacts {

    private MachineFacts() {
    }

    static Machine collect(Path targetJava) {
        Machine m = new Machine();
        m.cores = Runtime.getRuntime().availableProcessors();
        m.memoryMb = memTotalMb();
        m.cpuModel = cpuModel();
        m.os = System.getProperty("os.name") + " " + System.getProperty("os.arch");
        m.kernel = System.getProperty("os.version");
        m.harnessJava = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.home") + ")";
        m.targetJava = javaVersion(targetJava);
        m.clockTicksPerSecond = ProcStats.clockTicksPerSecond();
        m.gatlingVersion = gatlingVersion();
        m.loadAverageStart = loadAverage();
        return m;
    }

    /** The first three fields of /proc/loadavg, or null. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static long memTotalMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unknown
        }
        return Runtime.getRuntime().maxMemory() / (1024 * 1024);
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // unknown
        }
        return "unknown";
    }

    /** The first line of {@code java -version} plus the runtime line. */
    static String javaVersion(Path java) {
        try {
            Process p = new ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(30, TimeUnit.SECONDS);
            String[] lines = out.split("\\R");
            return (lines.length > 1 ? lines[0] + "; " + lines[1] : out) + " (" + java + ")";
        } catch (IOException e) {
            return "unknown (" + java + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown (" + java + ")";
        }
    }

    private static String gatlingVersion() {
        return OwnManifest.attribute("Argus-Gatling-Version", "3.15.x");
    }
}
