package io.argus.perf.harness;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** What the reports say about the machine: from /proc and /sys, and {@code java -version}. */
public final class HostFacts {

    private HostFacts() {
    }

    /** The first three fields of /proc/loadavg, or null. */
    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** MemTotal of /proc/meminfo in MB, or 0. */
    public static long memTotalMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("\\D+", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unknown
        }
        return 0;
    }

    public static String cpuModel() {
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

    /** The kernel's clock source, or "". */
    public static String clockSource() {
        try {
            return Files.readString(Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource")).trim();
        } catch (IOException e) {
            return "";
        }
    }

    /** The first line of {@code java -version} plus the runtime line. */
    public static String javaVersion(Path java) {
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
}
