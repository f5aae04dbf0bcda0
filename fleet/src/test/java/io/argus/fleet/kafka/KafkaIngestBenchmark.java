package io.argus.fleet.kafka;

import io.argus.cluster.kafka.KafkaBroker;
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
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Manual measure of sustained spans/s through one ingest collector into Kafka, against the embedded DuckDB
 * collector in the same run (not run by {@code mvn verify}).
 *
 * <pre>
 * mvn -q -o -pl fleet -am install -DskipTests
 * mvn -q -o -pl fleet test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd fleet
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.fleet.kafka.KafkaIngestBenchmark [agents=4] [spansPerFrame=500] [seconds=20] [rounds=3]
 * </pre>
 *
 * <p>{@code agents} connections send pre-built span frames as fast as the collector reads them (TCP back-pressure
 * is the only pacing). A round runs the embedded collector, then an ingest-only one publishing to a real broker
 * (forked JVM, 3 partitions per topic); each measures over {@code seconds} after a warm-up of a quarter of that
 * the spans stored (embedded) or acknowledged by Kafka ({@code acks=all}), and the collector's CPU per span
 * (process CPU minus the senders' thread CPU; the broker runs in its own process and is not counted).
 */
public final class KafkaIngestBenchmark {

    public static void main(String[] args) throws Exception {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int spansPerFrame = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        List<byte[]> frames = frames(spansPerFrame);
        try (KafkaBroker broker = BrokerSupport.startBroker("bench")) {
            for (int round = 1; round <= rounds; round++) {
                Path dir = Files.createTempDirectory("argus-kafka-bench");
                try (Collector c = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0)
                        .otlpHttpPort(0).dataDir(dir).build())) {
                    report("embedded", round, run(c, "argus_collector_spans_stored_total", agents, frames,
                            spansPerFrame, seconds));
                }
                String prefix = "bench" + round + "-";
                try (Collector c = BrokerSupport.startIngest(broker, prefix)) {
                    report("kafka   ", round, run(c, "argus_kafka_records_published_total{topic=\"" + prefix
                            + "spans\"}", agents, frames, spansPerFrame, seconds));
                }
            }
        }
    }

    record Result(long spans, double seconds, long collectorCpu, double load) {
    }

    private static void report(String mode, int round, Result r) {
        System.out.printf("round %d %s: %,.0f spans/s (%,d spans in %.1f s), collector %.2f us CPU/span,"
                        + " load %.2f%n", round, mode, r.spans / r.seconds, r.spans, r.seconds,
                r.collectorCpu / 1e3 / r.spans, r.load);
    }

    private static Result run(Collector c, String counter, int agents, List<byte[]> frames, int spansPerFrame,
                              int seconds) throws Exception {
        Api api = new Api(c);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong senderCpu = new AtomicLong();
        List<Thread> senders = new ArrayList<>();
        for (int a = 0; a < agents; a++) {
            int agent = a;
            Thread t = new Thread(() -> {
                long cpu0 = threads.getCurrentThreadCpuTime();
                try (Socket s = new Socket("127.0.0.1", c.ingestPort())) {
                    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
                    write(out, Frame.newBuilder().setHandshake(TestAgent.handshake("bench", "agent-" + agent))
                            .build().toByteArray());
                    for (int i = agent; running.get(); i++) {
                        write(out, frames.get(i % frames.size()));
                    }
                    out.flush();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                } finally {
                    senderCpu.addAndGet(threads.getCurrentThreadCpuTime() - cpu0);
                }
            }, "sender-" + a);
            t.start();
            senders.add(t);
        }
        Thread.sleep(Math.max(2, seconds / 4) * 1000L);
        double n0 = api.metric(counter);
        long cpuSenders0 = senderCpuNow(threads, senders);
        long cpu0 = processCpuNanos();
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        double n1 = api.metric(counter);
        long t1 = System.nanoTime();
        long cpu = processCpuNanos() - cpu0;
        long cpuSenders = senderCpuNow(threads, senders) - cpuSenders0;
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        running.set(false);
        for (Thread t : senders) {
            t.join();
        }
        return new Result((long) (n1 - n0), (t1 - t0) / 1e9, cpu - cpuSenders, load);
    }

    private static long senderCpuNow(ThreadMXBean threads, List<Thread> senders) {
        long sum = 0;
        for (Thread t : senders) {
            sum += Math.max(0, threads.getThreadCpuTime(t.getId()));
        }
        return sum;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static List<byte[]> frames(int n) {
        return frames(n, 1_764_000_000_000_000_000L);
    }

    /**
     * 64 distinct frames of {@code n} spans: one trace each, a root and its children, two tags per span; the spans
     * start within 1,000 s after {@code startEpochNanos}.
     */
    public static List<byte[]> frames(int n, long startEpochNanos) {
        SplittableRandom rnd = new SplittableRandom(42);
        String[] names = {"GET /api/orders", "POST /api/orders/{id}/items", "SELECT orders", "redis GET"};
        List<byte[]> out = new ArrayList<>();
        for (int f = 0; f < 64; f++) {
            SpanBatch.Builder b = SpanBatch.newBuilder();
            long hi = rnd.nextLong();
            long lo = rnd.nextLong();
            long root = rnd.nextLong() | 1;
            long start = startEpochNanos + rnd.nextLong(1_000_000_000_000L);
            for (int i = 0; i < n; i++) {
                b.addSpans(Span.newBuilder()
                        .setTraceIdHigh(hi).setTraceIdLow(lo).setSpanId(i == 0 ? root : rnd.nextLong() | 1)
                        .setParentSpanId(i == 0 ? 0 : root)
                        .setKind(i == 0 ? SpanKind.SPAN_KIND_SERVER : SpanKind.SPAN_KIND_CLIENT)
                        .setName(names[rnd.nextInt(names.length)])
                        .setStartEpochNanos(start + i * 1_000L).setDurationNanos(100_000 + rnd.nextInt(5_000_000))
                        .setStatus(SpanStatus.SPAN_STATUS_OK)
                        .addTags(Tag.newBuilder().setKey("http.method").setValue("GET"))
                        .addTags(Tag.newBuilder().setKey("http.status_code").setValue("200")));
            }
            out.add(Frame.newBuilder().setSpans(b).build().toByteArray());
        }
        return out;
    }

    /** One length-prefixed frame, as agents write them. */
    public static void write(DataOutputStream out, byte[] frame) throws IOException {
        out.writeInt(frame.length);
        out.write(frame);
    }
}
