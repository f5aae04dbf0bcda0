package io.argus.perf.moobench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The benchmark JVM (MooBench's benchmark driver and thread). One thread calls
 * {@link MonitoredClass#monitoredMethod} {@code --calls} times and times each call with
 * {@link System#nanoTime()} into a {@code long[]}; nothing else happens per call (no I/O, no
 * allocation). Afterwards the raw timings go to {@code --out} as little-endian longs and a few
 * facts about the run are printed as {@code MOOBENCH key=value} lines for the controller.
 *
 * <pre>
 * java [agent flags] -cp argus-perf-tests.jar io.argus.perf.moobench.MonitoredApp \
 *      --calls 2000000 --depth 10 --method-time 0 --out run.bin [--pin-cpu 1]
 * </pre>
 *
 * With {@code --pin-cpu N} the benchmark thread (native name {@value #THREAD_NAME}) moves itself
 * to core N with {@code taskset -p} before the first call; the rest of the JVM stays where the
 * controller put it.
 */
public final class MonitoredApp {

    static final String THREAD_NAME = "moobench-bench";
    static final String PREFIX = "MOOBENCH ";

    private static volatile long sink;

    private final int calls;
    private final int depth;
    private final long methodTime;
    private final long[] times;
    private final long mark;
    private long allocAtMark;
    private long gcCountAtMark;
    private long gcMillisAtMark;
    private long nanosAtMark;
    /** The agent's counters at the mark (sent, dropped), or null without the Argus agent. */
    private long[] spansAtMark;

    MonitoredApp(int calls, int depth, long methodTime) {
        this.calls = calls;
        this.depth = depth;
        this.methodTime = methodTime;
        this.times = new long[calls];
        this.mark = calls / 2;
    }

    public static void main(String[] args) throws Exception {
        int calls = 2_000_000;
        int depth = 10;
        long methodTime = 0;
        Path out = null;
        int pinCpu = -1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--calls": calls = Integer.parseInt(v); i++; break;
                case "--depth": depth = Integer.parseInt(v); i++; break;
                case "--method-time": methodTime = Long.parseLong(v); i++; break;
                case "--out": out = Path.of(v); i++; break;
                case "--pin-cpu": pinCpu = Integer.parseInt(v); i++; break;
                default: throw new IllegalArgumentException("unknown argument " + a);
            }
        }
        if (out == null || calls < 2 || depth < 1 || methodTime < 0) {
            throw new IllegalArgumentException("usage: --calls N (>= 2) --depth D (>= 1) --method-time NS --out FILE [--pin-cpu N]");
        }
        new MonitoredApp(calls, depth, methodTime).run(out, pinCpu);
        System.exit(0);
    }

    void run(Path out, int pinCpu) throws Exception {
        CountDownLatch pinned = new CountDownLatch(1);
        Throwable[] failure = new Throwable[1];
        Thread bench = new Thread(() -> {
            try {
                pinned.await();
                benchmark();
            } catch (Throwable t) {
                failure[0] = t;
            }
        }, THREAD_NAME);
        bench.start();
        report("pin", pinCpu < 0 ? "off" : pin(pinCpu));
        pinned.countDown();
        bench.join();
        if (failure[0] != null) {
            throw new IllegalStateException("benchmark thread failed", failure[0]);
        }
        write(out);
        report("calls", Integer.toString(calls));
        report("depth", Integer.toString(depth));
        reportAgentCounters();
        report("done", "true");
        System.out.flush();
    }

    private void benchmark() {
        MonitoredClass target = new MonitoredClass();
        long[] times = this.times;
        int depth = this.depth;
        long methodTime = this.methodTime;
        long allocStart = allocatedBytes();
        long gcCountStart = gcCount();
        long gcMillisStart = gcMillis();
        // MooBench: a garbage collection at the beginning of the warm-up shortens it
        System.gc();
        long result = 0;
        long wallStart = System.nanoTime();
        for (int i = 0; i < times.length; i++) {
            if (i == mark) {
                atMark();
            }
            long start = System.nanoTime();
            result ^= target.monitoredMethod(methodTime, depth);
            times[i] = System.nanoTime() - start;
        }
        long wall = System.nanoTime() - wallStart;
        sink = result;
        long steadyCalls = calls - mark;
        report("wall_ns", Long.toString(wall));
        report("alloc_bytes_total", Long.toString(allocatedBytes() - allocStart));
        report("alloc_bytes_steady", Long.toString(allocatedBytes() - allocAtMark));
        report("steady_calls", Long.toString(steadyCalls));
        report("gc_count_total", Long.toString(gcCount() - gcCountStart));
        report("gc_ms_total", Long.toString(gcMillis() - gcMillisStart));
        report("gc_count_steady", Long.toString(gcCount() - gcCountAtMark));
        report("gc_ms_steady", Long.toString(gcMillis() - gcMillisAtMark));
        report("steady_wall_ns", Long.toString(System.nanoTime() - nanosAtMark));
        long[] spans = spanCounters();
        if (spans != null && spansAtMark != null) {
            // what the agent sent (or the discarding exporter took) and dropped while the measured half ran
            report("argus_sentSpans_steady", Long.toString(spans[0] - spansAtMark[0]));
            report("argus_droppedSpans_steady", Long.toString(spans[1] - spansAtMark[1]));
        }
    }

    /** Out of line, once per run: snapshots at the start of the measured half. */
    private void atMark() {
        allocAtMark = allocatedBytes();
        gcCountAtMark = gcCount();
        gcMillisAtMark = gcMillis();
        spansAtMark = spanCounters();
        nanosAtMark = System.nanoTime();
    }

    private void write(Path out) throws IOException {
        Files.createDirectories(out.toAbsolutePath().getParent());
        ByteBuffer buffer = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(out, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long t : times) {
                if (!buffer.hasRemaining()) {
                    flush(channel, buffer);
                }
                buffer.putLong(t);
            }
            flush(channel, buffer);
        }
    }

    private static void flush(FileChannel channel, ByteBuffer buffer) throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    /** Finds this JVM's thread by its native name and moves it to {@code cpu}. */
    static String pin(int cpu) {
        try {
            String tid = null;
            for (int attempt = 0; attempt < 100 && tid == null; attempt++) {
                try (var tasks = Files.list(Path.of("/proc/self/task"))) {
                    for (Path task : (Iterable<Path>) tasks::iterator) {
                        String comm = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).trim();
                        if (comm.equals(THREAD_NAME)) {
                            tid = task.getFileName().toString();
                        }
                    }
                }
                if (tid == null) {
                    Thread.sleep(10);
                }
            }
            if (tid == null) {
                return "failed: no thread named " + THREAD_NAME + " in /proc/self/task";
            }
            Process p = new ProcessBuilder("taskset", "-p", "-c", Integer.toString(cpu), tid)
                    .redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim()
                    .replace('\n', ' ');
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return "failed: taskset: " + output;
            }
            return "cpu" + cpu + " tid=" + tid;
        } catch (Exception e) {
            return "failed: " + e;
        }
    }

    /**
     * The Argus agent's own counters (spans sent and dropped), read by reflection through the
     * bridge after the run, for the report only. Absent without the Argus agent.
     */
    static void reportAgentCounters() {
        try {
            Object counters = agentCounters();
            if (counters == null) {
                return; // T or a peer agent
            }
            report("argus_sentSpans", Long.toString(taken(counters)));
            for (String name : new String[] {"droppedSpans", "adviceErrors"}) {
                Object value = counters.getClass().getField(name).get(counters);
                report("argus_" + name, value.toString());
            }
        } catch (Throwable t) {
            report("argus_counters", "unavailable: " + t.toString().replace(' ', '_'));
        }
    }

    /** The Argus agent's counters object, through the bridge by reflection; null without the Argus agent. */
    private static Object agentCounters() throws ReflectiveOperationException {
        Class<?> errors;
        try {
            errors = Class.forName("io.argus.bridge.AdviceErrors");
        } catch (ClassNotFoundException noArgus) {
            return null;
        }
        Field hooksField = errors.getDeclaredField("sink");
        hooksField.setAccessible(true);
        Object hooks = hooksField.get(null);
        Field countersField = hooks.getClass().getDeclaredField("counters");
        countersField.setAccessible(true);
        return countersField.get(hooks);
    }

    /** {sent, dropped} spans so far, or null without the Argus agent or when they cannot be read. */
    private static long[] spanCounters() {
        try {
            Object counters = agentCounters();
            if (counters == null) {
                return null;
            }
            return new long[] {taken(counters),
                    ((Number) counters.getClass().getField("droppedSpans").get(counters)).longValue()};
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Spans the exporter handed on: those the collector acknowledged ({@code sentSpans}) and those the connection
     * holds until it does ({@code unackedSpans}, absent from agents that predate acknowledgements).
     */
    private static long taken(Object counters) throws ReflectiveOperationException {
        long taken = ((Number) counters.getClass().getField("sentSpans").get(counters)).longValue();
        try {
            taken += ((Number) counters.getClass().getField("unackedSpans").get(counters)).longValue();
        } catch (NoSuchFieldException olderAgent) {
            // sent when written
        }
        return taken;
    }

    private static long allocatedBytes() {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (threads instanceof com.sun.management.ThreadMXBean) {
            return ((com.sun.management.ThreadMXBean) threads).getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static long gcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
    }

    private static void report(String key, String value) {
        System.out.println(PREFIX + key + "=" + value);
    }
}
