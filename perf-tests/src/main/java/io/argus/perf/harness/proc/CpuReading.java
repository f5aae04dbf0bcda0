package io.argus.perf.harness.proc;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * A process's CPU time at one moment, read from {@code /proc} without touching the process: the sum
 * of its threads' run time in nanoseconds ({@code /proc/[pid]/task/[tid]/schedstat}, first field),
 * the threads it had, and {@code utime + stime} of {@code /proc/[pid]/stat}, which counts the
 * threads that ended too but only in clock ticks (10 ms). A window between two readings takes the
 * nanosecond sum when every thread of the first reading is still there, else the ticks: a round of
 * 200 requests at 200 µs each is 40 ms of CPU, which ticks would resolve to 25%.
 *
 * @param threadNanos the threads' summed run time, or -1 when schedstat cannot be read
 * @param threads     the thread ids of that sum
 * @param statMillis  utime + stime in ms, or -1 when the process is gone
 */
public record CpuReading(long threadNanos, Set<Long> threads, double statMillis) {

    public static CpuReading of(long pid) {
        double stat = ProcStats.cpuMillis(pid);
        Set<Long> threads = new HashSet<>();
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String text;
                try {
                    text = Files.readString(task.resolve("schedstat"));
                } catch (IOException e) {
                    continue; // the thread ended while listed: the stat figure covers it
                }
                sum += parseRunNanos(text);
                threads.add(Long.parseLong(task.getFileName().toString()));
            }
        } catch (IOException | RuntimeException e) {
            return new CpuReading(-1, Set.of(), stat);
        }
        return new CpuReading(sum, threads, stat);
    }

    /** The first field of a schedstat line: time spent on the CPU, in ns. */
    static long parseRunNanos(String schedstat) {
        String t = schedstat.trim();
        int space = t.indexOf(' ');
        return Long.parseLong(space < 0 ? t : t.substring(0, space));
    }

    /** CPU ms from {@code before} to this reading; NaN when either could not be read. */
    public double millisSince(CpuReading before) {
        if (threadNanos >= 0 && before.threadNanos >= 0 && threads.containsAll(before.threads)) {
            return (threadNanos - before.threadNanos) / 1e6;
        }
        if (statMillis < 0 || before.statMillis < 0) {
            return Double.NaN;
        }
        return statMillis - before.statMillis;
    }
}
