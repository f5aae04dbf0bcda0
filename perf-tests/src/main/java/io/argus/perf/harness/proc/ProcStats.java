package io.argus.perf.harness.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Resource figures of a running JVM: CPU time and memory from {@code /proc}, GC figures and the
 * heap from {@code jstat} and {@code jcmd} of the JDK that runs the target.
 */
public final class ProcStats {

    private static volatile long clockTicks = -1;

    private final Path jdkBin;

    /** @param jdkBin the bin directory of the JDK running the targets (jstat, jcmd); may lack them */
    public ProcStats(Path jdkBin) {
        this.jdkBin = jdkBin;
    }

    /** USER_HZ, the unit of utime and stime in /proc/[pid]/stat (getconf CLK_TCK; 100 if unknown). */
    public static long clockTicksPerSecond() {
        long t = clockTicks;
        if (t > 0) {
            return t;
        }
        t = 100;
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0) {
                t = Long.parseLong(out);
            }
        } catch (IOException | NumberFormatException e) {
            // keep 100
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        clockTicks = t;
        return t;
    }

    /** utime + stime of the process in milliseconds, or -1 when it is gone. */
    public static double cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return parseCpuTicks(stat) * 1000.0 / clockTicksPerSecond();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime in clock ticks from a /proc/[pid]/stat line (fields 14 and 15). */
    static long parseCpuTicks(String stat) {
        // the command name (field 2) is in parentheses and may contain spaces
        String rest = stat.substring(stat.lastIndexOf(')') + 2);
        String[] f = rest.trim().split("\\s+");
        // rest starts at field 3 (state): utime is field 14 -> index 11, stime index 12
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** The named fields of /proc/[pid]/status (e.g. VmHWM, VmRSS in kB; Threads), or an empty map. */
    public static Map<String, Long> status(long pid) {
        Map<String, Long> out = new HashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                int colon = line.indexOf(':');
                if (colon < 0) {
                    continue;
                }
                String key = line.substring(0, colon).trim();
                String[] value = line.substring(colon + 1).trim().split("\\s+");
                if (value.length > 0) {
                    try {
                        out.put(key, Long.parseLong(value[0]));
                    } catch (NumberFormatException ignored) {
                        // not numeric
                    }
                }
            }
        } catch (IOException e) {
            // gone
        }
        return out;
    }

    /**
     * {@code jstat -gc <pid>} as column name to value (KB for sizes, seconds for times, counts),
     * or null when jstat is missing or fails.
     */
    public Map<String, Double> jstatGc(long pid) {
        String out = run(tool("jstat"), "-gc", Long.toString(pid));
        return out == null ? null : parseJstat(out);
    }

    static Map<String, Double> parseJstat(String out) {
        String[] lines = out.trim().split("\\R");
        if (lines.length < 2) {
            return null;
        }
        String[] head = lines[lines.length - 2].trim().split("\\s+");
        String[] vals = lines[lines.length - 1].trim().split("\\s+");
        if (head.length != vals.length) {
            return null;
        }
        Map<String, Double> m = new HashMap<>();
        for (int i = 0; i < head.length; i++) {
            try {
                m.put(head[i], Double.parseDouble(vals[i]));
            } catch (NumberFormatException e) {
                // '-' for an unused collector
            }
        }
        return m;
    }

    /** GC count over every collector (young, full, concurrent) from jstat -gc, or null. */
    public static Long gcCount(Map<String, Double> gc) {
        if (gc == null) {
            return null;
        }
        double n = gc.getOrDefault("YGC", 0.0) + gc.getOrDefault("FGC", 0.0) + gc.getOrDefault("CGC", 0.0);
        return (long) n;
    }

    /** GC time in ms (GCT, which is YGCT + FGCT + CGCT) from jstat -gc, or null. */
    public static Double gcTimeMs(Map<String, Double> gc) {
        if (gc == null) {
            return null;
        }
        Double gct = gc.get("GCT");
        if (gct == null) {
            gct = gc.getOrDefault("YGCT", 0.0) + gc.getOrDefault("FGCT", 0.0) + gc.getOrDefault("CGCT", 0.0);
        }
        return gct * 1000;
    }

    /** Heap in use (survivors + eden + old) in KB from jstat -gc, or null. */
    public static Long heapUsedKb(Map<String, Double> gc) {
        if (gc == null || !gc.containsKey("EU") || !gc.containsKey("OU")) {
            return null;
        }
        double kb = gc.getOrDefault("S0U", 0.0) + gc.getOrDefault("S1U", 0.0) + gc.get("EU") + gc.get("OU");
        return Math.round(kb);
    }

    /** Forces a full GC ({@code jcmd <pid> GC.run}); true when jcmd succeeded. */
    public boolean forceGc(long pid) {
        return run(tool("jcmd"), Long.toString(pid), "GC.run") != null;
    }

    private String tool(String name) {
        if (jdkBin != null) {
            Path p = jdkBin.resolve(name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        Path own = Path.of(System.getProperty("java.home"), "bin", name);
        return Files.isExecutable(own) ? own.toString() : name;
    }

    private static String run(String... command) {
        try {
            List<String> cmd = new ArrayList<>(List.of(command));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
