package io.argus.collector.storage.duckdb;

import io.argus.collector.Collector;
import io.argus.collector.storage.Source;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.Frame;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.protocol.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * Manual throughput check of the storage write path (not run by {@code mvn verify}).
 *
 * <pre>
 * mvn -q -o -pl protocol,collector-server test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd collector-server
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.collector.storage.duckdb.StorageThroughputBenchmark [spans=5000000] [mode=storage|tcp]
 * </pre>
 *
 * <p>{@code storage}: decoded span batches (1000 spans, 4 spans per trace, 3 tags each, all ids distinct, as
 * the ingest pipeline hands them over, built before the clock starts) are offered to {@link DuckDbStorage} as fast as its bounded queue takes them;
 * the clock stops when {@code flush} confirms everything is committed to the on-disk database.
 * {@code tcp}: the same batches, pre-serialized, sent as frames by 4 agent connections to a full
 * {@link Collector}, measured until the last span is stored (framing + protobuf decode + validation + storage).
 */
public final class StorageThroughputBenchmark {
    static final int BATCH = 1000;

    public static void main(String[] args) throws Exception {
        long spans = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        String mode = args.length > 1 ? args[1] : "storage";
        List<SpanBatch> batches = batches((int) Math.min(spans / BATCH, 10_000));
        Path dir = Files.createTempDirectory("argus-bench");
        try {
            if (mode.equals("tcp")) {
                tcp(dir, batches, spans);
            } else {
                storage(dir, batches, spans);
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** {@code count} batches of {@value #BATCH} spans, all with distinct ids and increasing start times. */
    static List<SpanBatch> batches(int count) {
        SplittableRandom rnd = new SplittableRandom(42);
        String[] names = {"GET /api/orders", "POST /api/orders/{id}/items", "SELECT orders", "GET /inventory/check",
            "redis GET", "kafka send orders"};
        List<SpanBatch> out = new ArrayList<>(count);
        long start = 1_700_000_000_000_000_000L;
        for (int b = 0; b < count; b++) {
            SpanBatch.Builder batch = SpanBatch.newBuilder();
            long hi = 0;
            long lo = 0;
            long root = 0;
            for (int i = 0; i < BATCH; i++) {
                if (i % 4 == 0) {
                    hi = rnd.nextLong();
                    lo = rnd.nextLong();
                    root = rnd.nextLong() | 1;
                }
                boolean isRoot = i % 4 == 0;
                long id = isRoot ? root : rnd.nextLong() | 1;
                start += 1_000;
                batch.addSpans(Span.newBuilder()
                        .setTraceIdHigh(hi).setTraceIdLow(lo).setSpanId(id).setParentSpanId(isRoot ? 0 : root)
                        .setKind(isRoot ? SpanKind.SPAN_KIND_SERVER : SpanKind.SPAN_KIND_CLIENT)
                        .setName(names[rnd.nextInt(names.length)])
                        .setStartEpochNanos(start).setDurationNanos(100_000 + rnd.nextInt(5_000_000))
                        .setStatus(rnd.nextInt(50) == 0 ? SpanStatus.SPAN_STATUS_ERROR : SpanStatus.SPAN_STATUS_OK)
                        .addTags(Tag.newBuilder().setKey("http.method").setValue("GET"))
                        .addTags(Tag.newBuilder().setKey("http.status_code").setValue("200"))
                        .addTags(Tag.newBuilder().setKey("peer.address").setValue("10.0.0." + rnd.nextInt(255) + ":8080")));
            }
            out.add(batch.build());
        }
        return out;
    }

    static void storage(Path dir, List<SpanBatch> batches, long spans) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Source source = new Source("bench-service", "bench-instance-1");
        try (DuckDbStorage storage = DuckDbStorage.open(dir, 262_144, meters)) {
            offer(storage, source, batches(1_000), 1_000_000); // warm-up: JIT, first row groups
            storage.flush(Duration.ofMinutes(5));
            long cpu0 = processCpuNanos();
            long t0 = System.nanoTime();
            offer(storage, source, batches, spans);
            if (!storage.flush(Duration.ofMinutes(10))) {
                throw new IllegalStateException("flush timed out");
            }
            long t1 = System.nanoTime();
            long cpu = processCpuNanos() - cpu0;
            report("storage", spans, t1 - t0, storage.file());
            System.out.printf("  process CPU %.2f s = %.2f us/span, %,.0f spans per CPU-second (%d cores)%n",
                    cpu / 1e9, cpu / 1e3 / spans, spans / (cpu / 1e9), Runtime.getRuntime().availableProcessors());
            for (int i = 0; i < 3; i++) {
                long q0 = System.nanoTime();
                var recent = storage.traces(new io.argus.collector.storage.TraceQuery(null, 0, 20));
                long q1 = System.nanoTime();
                long[] id = io.argus.collector.storage.Ids.parseTraceId(recent.get(0).traceId());
                storage.trace(id[0], id[1]).orElseThrow();
                long q2 = System.nanoTime();
                System.out.printf("  query over %,d spans: recent traces %.0f ms, one trace %.0f ms%n",
                        spans + 1_000_000, (q1 - q0) / 1e6, (q2 - q1) / 1e6);
            }
            var timer = meters.get("argus.collector.storage.write").timer();
            System.out.printf("  write cycles: %d, mean %.1f ms, max %.1f ms%n", timer.count(),
                    timer.mean(java.util.concurrent.TimeUnit.MILLISECONDS),
                    timer.max(java.util.concurrent.TimeUnit.MILLISECONDS));
        }
    }

    private static void offer(DuckDbStorage storage, Source source, List<SpanBatch> batches, long spans) {
        long sent = 0;
        int i = 0;
        while (sent < spans) {
            SpanBatch b = batches.get(i++ % batches.size());
            while (!storage.offerSpans(source, b)) {
                java.util.concurrent.locks.LockSupport.parkNanos(200_000);
            }
            sent += b.getSpansCount();
        }
    }

    static void tcp(Path dir, List<SpanBatch> batches, long spans) throws Exception {
        int agents = 4;
        List<byte[]> frames = new ArrayList<>();
        for (SpanBatch b : batches) {
            frames.add(Frame.newBuilder().setSpans(b).build().toByteArray());
        }
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dir).build())) {
            long perAgent = spans / agents / BATCH;
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int a = 0; a < agents; a++) {
                int agent = a;
                Thread t = new Thread(() -> {
                    try (Socket s = new Socket("127.0.0.1", c.ingestPort())) {
                        DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
                                s.getOutputStream(), 1 << 16));
                        byte[] hello = Frame.newBuilder().setHandshake(TestAgent.handshake("bench", "bench-" + agent))
                                .build().toByteArray();
                        write(out, hello);
                        go.await();
                        for (long n = 0; n < perAgent; n++) {
                            write(out, frames.get((int) ((n * agents + agent) % frames.size())));
                        }
                        out.flush();
                        s.shutdownOutput();
                        s.getInputStream().read(); // wait for the collector to finish reading
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                t.start();
                threads.add(t);
            }
            long total = perAgent * agents * BATCH;
            long cpu0 = processCpuNanos();
            long t0 = System.nanoTime();
            go.countDown();
            for (Thread t : threads) {
                t.join();
            }
            Api api = new Api(c);
            api.awaitMetric("argus_collector_spans_stored_total", total);
            long t1 = System.nanoTime();
            long cpu = processCpuNanos() - cpu0;
            report("tcp end-to-end (" + agents + " connections)", total, t1 - t0,
                    dir.resolve(DuckDbStorage.DB_FILE));
            System.out.printf("  process CPU (collector and senders) %.2f s = %.2f us/span%n", cpu / 1e9,
                    cpu / 1e3 / total);
        }
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void write(DataOutputStream out, byte[] frame) throws IOException {
        out.writeInt(frame.length);
        ((OutputStream) out).write(frame);
    }

    private static void report(String what, long spans, long nanos, Path file) {
        double seconds = nanos / 1e9;
        long bytes = file.toFile().length();
        System.out.printf("%s: %,d spans in %.2f s = %,.0f spans/s (db file %,d MB, %.1f bytes/span)%n", what, spans,
                seconds, spans / seconds, bytes >> 20, (double) bytes / spans);
    }
}
