package io.argus.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.perf.harness.run.CollectorProcess;
import io.argus.testing.AgentApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The soak: the assembled collector (its own JVM, {@code -Xmx512m}) and the sample services {@code front -> back}
 * with the agent at 100 % sampling, under steady traffic for {@code -Dsoak.minutes} (30). Every minute each of the
 * three JVMs is sampled: heap after a full GC ({@code jcmd GC.run}, then {@code GC.heap_info}), RSS and threads
 * ({@code /proc/<pid>/status}) and open file descriptors ({@code /proc/<pid>/fd}). Over the second half, after
 * warm-up, each must stay flat; the samples go to {@code target/soak/soak.csv} and a summary to the output.
 * Not part of {@code mvn verify}: run with {@code mvn -pl distribution -Psoak verify} (see docs/benchmarks.md).
 */
class SoakIT {
    static final int MINUTES = Integer.getInteger("soak.minutes", 30);
    static final int REQUESTS_PER_SECOND = Integer.getInteger("soak.rate", 40);
    static final Path OUT = Paths.get(System.getProperty("argus.home")).getParent().resolve("soak");
    static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    static final Pattern PROC_FIELD = Pattern.compile("(?m)^(VmRSS|Threads):\\s+(\\d+)");

    /** One minute's sample of one JVM. */
    record Sample(int minute, String process, long heapAfterGcKb, long rssKb, long threads, long fds) {
    }

    @Test
    void agentAndCollectorStayFlatUnderSteadyTraffic() throws Exception {
        Files.createDirectories(OUT);
        Path javaHome = Paths.get(System.getProperty("java.home"));
        Path script = Paths.get(System.getProperty("argus.home"), "collector", "bin", "argus-collector");
        CollectorProcess.Launch launch = new CollectorProcess.Launch(List.of(script.toString()),
                Map.of("JAVA_HOME", javaHome.toString(), "ARGUS_COLLECTOR_OPTS", "-Xmx512m"), false);
        try (CollectorProcess collector = CollectorProcess.start(launch, OUT.resolve("data"), OUT.resolve("collector.log"),
                Duration.ofMinutes(2));
             SampleCluster cluster = SampleCluster.start(javaHome.toString(), "soak",
                     app -> app.collector(collector.ingestPort()).samplingRate(100))) {
            Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("collector", collector.jvmPid());
            pids.put("front", cluster.front.pid());
            pids.put("back", cluster.back.pid());
            AtomicLong ok = new AtomicLong();
            AtomicLong failed = new AtomicLong();
            Thread traffic = new Thread(() -> {
                long every = TimeUnit.SECONDS.toNanos(1) / REQUESTS_PER_SECOND;
                long next = System.nanoTime();
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        (cluster.get("/front/call") == 200 ? ok : failed).incrementAndGet();
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                    }
                    next += every;
                    long sleep = next - System.nanoTime();
                    if (sleep > 0) {
                        try {
                            TimeUnit.NANOSECONDS.sleep(sleep);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }
            }, "soak-traffic");
            traffic.setDaemon(true);
            traffic.start();
            List<Sample> samples = new ArrayList<>();
            long start = System.nanoTime();
            try {
                for (int minute = 1; minute <= MINUTES; minute++) {
                    long due = start + TimeUnit.MINUTES.toNanos(minute);
                    TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
                    for (Map.Entry<String, Long> p : pids.entrySet()) {
                        samples.add(sample(minute, p.getKey(), p.getValue(), javaHome));
                    }
                    write(samples);
                    System.out.println("soak minute " + minute + ": " + ok.get() + " requests, " + failed.get()
                            + " failed; " + samples.subList(samples.size() - 3, samples.size()));
                }
            } finally {
                traffic.interrupt();
                traffic.join(10_000);
            }
            String summary = summary(samples, ok.get(), failed.get());
            Files.writeString(OUT.resolve("summary.md"), summary);
            System.out.println(summary);
            assertThat(failed.get()).as("failed requests").isZero();
            for (String process : pids.keySet()) {
                List<Sample> mine = samples.stream().filter(s -> s.process().equals(process)
                        && s.minute() > MINUTES / 2).toList();
                assertFlat(process + " heap after GC", mine.stream().mapToLong(Sample::heapAfterGcKb).toArray(), 0.25,
                        16 * 1024);
                assertFlat(process + " RSS", mine.stream().mapToLong(Sample::rssKb).toArray(), 0.15, 48 * 1024);
                assertFlat(process + " threads", mine.stream().mapToLong(Sample::threads).toArray(), 0, 4);
                assertFlat(process + " file descriptors", mine.stream().mapToLong(Sample::fds).toArray(), 0, 8);
            }
        }
    }

    /** Flat: the last value exceeds the first by at most {@code ratio} of it, or by {@code slack}, whichever is more. */
    private static void assertFlat(String what, long[] values, double ratio, long slack) {
        long first = values[0];
        long last = values[values.length - 1];
        long allowed = Math.max((long) (first * ratio), slack);
        assertThat(last - first).as(what + " from " + first + " to " + last + " over the second half").isLessThanOrEqualTo(
                allowed);
    }

    private static Sample sample(int minute, String process, long pid, Path javaHome)
            throws IOException, InterruptedException {
        String jcmd = javaHome.resolve("bin/jcmd").toString();
        run(jcmd, Long.toString(pid), "GC.run");
        Matcher heap = HEAP_USED.matcher(run(jcmd, Long.toString(pid), "GC.heap_info"));
        long heapKb = heap.find() ? Long.parseLong(heap.group(1)) : -1;
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        long rss = -1;
        long threads = -1;
        Matcher m = PROC_FIELD.matcher(status);
        while (m.find()) {
            if (m.group(1).equals("VmRSS")) {
                rss = Long.parseLong(m.group(2));
            } else {
                threads = Long.parseLong(m.group(2));
            }
        }
        long fds;
        try (var list = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            fds = list.count();
        }
        return new Sample(minute, process, heapKb, rss, threads, fds);
    }

    private static String run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(60, TimeUnit.SECONDS);
        return out;
    }

    private static void write(List<Sample> samples) throws IOException {
        StringBuilder csv = new StringBuilder("minute,process,heap_after_gc_kb,rss_kb,threads,fds\n");
        for (Sample s : samples) {
            csv.append(s.minute()).append(',').append(s.process()).append(',').append(s.heapAfterGcKb()).append(',')
                    .append(s.rssKb()).append(',').append(s.threads()).append(',').append(s.fds()).append('\n');
        }
        Files.writeString(OUT.resolve("soak.csv"), csv);
    }

    /** A Markdown table: every five minutes, each process's heap after GC and RSS in MiB, threads, descriptors. */
    static String summary(List<Sample> samples, long ok, long failed) {
        StringBuilder out = new StringBuilder("| minute | collector heap after GC / RSS (MiB) | threads | fds"
                + " | front heap after GC / RSS (MiB) | threads | fds | back heap after GC / RSS (MiB) | threads | fds |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        int last = samples.get(samples.size() - 1).minute();
        for (int minute = 1; minute <= last; minute++) {
            if (minute != 1 && minute % 5 != 0 && minute != last) {
                continue;
            }
            out.append("| ").append(minute);
            for (String process : List.of("collector", "front", "back")) {
                int m = minute;
                Sample s = samples.stream().filter(x -> x.minute() == m && x.process().equals(process)).findFirst()
                        .orElseThrow();
                out.append(String.format(" | %.1f / %.1f | %d | %d", s.heapAfterGcKb() / 1024.0, s.rssKb() / 1024.0,
                        s.threads(), s.fds()));
            }
            out.append(" |\n");
        }
        out.append("\n").append(ok).append(" requests answered 200, ").append(failed).append(" failed.\n");
        return out.toString();
    }
}
