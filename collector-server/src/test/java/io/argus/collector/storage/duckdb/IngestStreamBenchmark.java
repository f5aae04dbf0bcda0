package io.argus.collector.storage.duckdb;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.protocol.Frame;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.protocol.Tag;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Manual check of the collector's CPU per stored span under a stream of small frames from several agents,
 * the way agents deliver at 100 % sampling (not run by {@code mvn verify}).
 *
 * <pre>
 * mvn -q -o -pl protocol,collector-server test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd collector-server
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.collector.storage.duckdb.IngestStreamBenchmark [agents=8] [framesPerSecondPerAgent=100] \
 *      [maxSpansPerFrame=20] [seconds=20]
 * </pre>
 *
 * <p>Each agent connection sends paced frames of 1 to {@code maxSpansPerFrame} spans (uniformly) to a full
 * in-process {@link Collector}. After a warm-up phase of a quarter of the run, the measured phase runs for
 * {@code seconds} and ends when the last span is stored. The collector's CPU is the process CPU time over the
 * measured phase minus the CPU time of the sender threads (measured by themselves); DuckDB's native worker
 * threads are included, as they are in the process figure. With {@code -Dthreads} it also prints the measured
 * phase's CPU per group of threads (on Linux every thread of the process: the JIT's, GC's and DuckDB's included).
 */
public final class IngestStreamBenchmark {

    public static void main(String[] args) throws Exception {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int fps = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int maxSpans = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
        Path dir = Files.createTempDirectory("argus-stream-bench");
        try (Collector c = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0)
                    .otlpHttpPort(CollectorConfig.ANY_FREE_PORT).dataDir(dir).build())) {
            Api api = new Api(c);
            long[] stored = {0};
            Phase warm = run(c, api, agents, fps, maxSpans, Math.max(2, seconds / 4), 1, stored);
            System.out.printf("warm-up: %,d spans%n", warm.spans);
            Phase p = run(c, api, agents, fps, maxSpans, seconds, 2, stored);
            long collectorCpu = p.processCpu - p.senderCpu;
            System.out.printf("stream: %d agents x %d frames/s, 1-%d spans/frame: %,d spans in %,d frames, %.1f s"
                            + " (%,.0f spans/s)%n", agents, fps, maxSpans, p.spans, p.frames, p.nanos / 1e9,
                    p.spans / (p.nanos / 1e9));
            System.out.printf("  collector CPU %.3f s = %.2f us/span (process %.3f s, senders %.3f s; %d cores)%n",
                    collectorCpu / 1e9, collectorCpu / 1e3 / p.spans, p.processCpu / 1e9, p.senderCpu / 1e9,
                    Runtime.getRuntime().availableProcessors());
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    record Phase(long spans, long frames, long nanos, long processCpu, long senderCpu) {}

    private static Phase run(Collector c, Api api, int agents, int fps, int maxSpans, int seconds, int seed,
                             long[] stored) throws Exception {
        long framesPerAgent = (long) fps * seconds;
        List<List<byte[]>> frames = new ArrayList<>();
        long spans = 0;
        for (int a = 0; a < agents; a++) {
            SplittableRandom rnd = new SplittableRandom(seed * 1000L + a);
            List<byte[]> mine = new ArrayList<>();
            for (long f = 0; f < framesPerAgent; f++) {
                int n = 1 + rnd.nextInt(maxSpans);
                spans += n;
                mine.add(Frame.newBuilder().setSpans(batch(rnd, n)).build().toByteArray());
            }
            frames.add(mine);
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AtomicLong senderCpu = new AtomicLong();
        CountDownLatch ready = new CountDownLatch(agents);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> senders = new ArrayList<>();
        long periodNanos = 1_000_000_000L / fps;
        for (int a = 0; a < agents; a++) {
            int agent = a;
            Thread t = new Thread(() -> {
                try (Socket s = new Socket("127.0.0.1", c.ingestPort())) {
                    s.setTcpNoDelay(true);
                    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
                    write(out, Frame.newBuilder().setHandshake(TestAgent.handshake("stream-bench", "agent-" + agent))
                            .build().toByteArray());
                    out.flush();
                    ready.countDown();
                    go.await();
                    long cpu0 = threads.getCurrentThreadCpuTime();
                    // agents start out of phase, as independent applications would
                    long next = System.nanoTime() + periodNanos * agent / agents;
                    for (byte[] frame : frames.get(agent)) {
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        write(out, frame);
                        out.flush();
                        next += periodNanos;
                    }
                    senderCpu.addAndGet(threads.getCurrentThreadCpuTime() - cpu0);
                    s.shutdownOutput();
                    s.getInputStream().read(); // until the collector has read everything
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, "sender-" + a);
            t.start();
            senders.add(t);
        }
        ready.await();
        Map<String, Long> threadCpu0 = System.getProperty("threads") != null ? TaskCpu.byName() : Map.of();
        long cpu0 = StorageThroughputBenchmark.processCpuNanos();
        long t0 = System.nanoTime();
        go.countDown();
        for (Thread t : senders) {
            t.join();
        }
        stored[0] += spans;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (api.metric("argus_collector_spans_stored_total") < stored[0]) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("spans not stored within 60 s");
            }
            Thread.sleep(20);
        }
        long t1 = System.nanoTime();
        long cpu = StorageThroughputBenchmark.processCpuNanos() - cpu0;
        if (System.getProperty("threads") != null) {
            Map<String, Long> used = new TreeMap<>();
            TaskCpu.byName().forEach((name, t) -> used.put(name, t - threadCpu0.getOrDefault(name, 0L)));
            used.forEach((name, t) -> {
                if (t > 20_000_000L) {
                    System.out.printf("  threads %-24s %.3f s%n", name, t / 1e9);
                }
            });
        }
        return new Phase(spans, framesPerAgent * agents, t1 - t0, cpu, senderCpu.get());
    }

    private static SpanBatch batch(SplittableRandom rnd, int n) {
        String[] names = {"GET /api/orders", "POST /api/orders/{id}/items", "SELECT orders", "redis GET"};
        SpanBatch.Builder b = SpanBatch.newBuilder();
        long hi = rnd.nextLong();
        long lo = rnd.nextLong();
        long root = rnd.nextLong() | 1;
        // within the last hour: the collector drops spans outside its clock window (retention, future skew)
        long start = System.currentTimeMillis() * 1_000_000L - rnd.nextLong(3_600_000_000_000L);
        for (int i = 0; i < n; i++) {
            boolean isRoot = i == 0;
            b.addSpans(Span.newBuilder()
                    .setTraceIdHigh(hi).setTraceIdLow(lo).setSpanId(isRoot ? root : rnd.nextLong() | 1)
                    .setParentSpanId(isRoot ? 0 : root)
                    .setKind(isRoot ? SpanKind.SPAN_KIND_SERVER : SpanKind.SPAN_KIND_CLIENT)
                    .setName(names[rnd.nextInt(names.length)])
                    .setStartEpochNanos(start + i * 1_000L).setDurationNanos(100_000 + rnd.nextInt(5_000_000))
                    .setStatus(SpanStatus.SPAN_STATUS_OK)
                    .addTags(Tag.newBuilder().setKey("http.method").setValue("GET"))
                    .addTags(Tag.newBuilder().setKey("http.status_code").setValue("200")));
        }
        return b.build();
    }

    private static void write(DataOutputStream out, byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
    }
}
