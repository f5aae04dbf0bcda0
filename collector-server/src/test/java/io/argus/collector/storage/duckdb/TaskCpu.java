package io.argus.collector.storage.duckdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * CPU time of every thread of this process, summed per thread name with its numbers left out (Linux
 * {@code /proc/self/task}; the JVM's own and native threads included, which {@code ThreadMXBean} does not list).
 * For the benchmarks' per-thread reports; empty elsewhere.
 */
final class TaskCpu {
    private static final long NANOS_PER_TICK = 10_000_000L; // USER_HZ is 100 on Linux

    private TaskCpu() {
    }

    static Map<String, Long> byName() {
        Map<String, Long> out = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(task -> {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    // the name is in parentheses and may hold spaces; utime and stime are fields 14 and 15
                    int close = stat.lastIndexOf(')');
                    String name = stat.substring(stat.indexOf('(') + 1, close).replaceAll("[0-9]+", "N");
                    String[] f = stat.substring(close + 2).split(" ");
                    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    out.merge(name, ticks * NANOS_PER_TICK, Long::sum);
                } catch (IOException | RuntimeException gone) {
                    // the thread ended meanwhile
                }
            });
        } catch (IOException notLinux) {
            return Map.of();
        }
        return out;
    }
}
