package io.argus.fleet.druid;

import io.argus.cluster.druid.DruidCluster;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.kafka.KafkaSettings;
import io.argus.collector.storage.druid.DruidDatasources;
import io.argus.collector.storage.druid.DruidSettings;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.protocol.Frame;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.cluster.kafka.KafkaBroker;
import io.argus.fleet.kafka.KafkaIngestBenchmark;
import io.argus.cluster.kafka.KafkaInstall;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Manual measure of the whole scale-out ingest path: span frames from {@code agents} connections, half to ingest
 * collector A and half to B ({@code --storage kafka}, in this JVM), a real KRaft broker (3 partitions per topic),
 * a real Druid cluster whose Kafka supervisor (one task per datasource) reads the topics, and a query collector
 * ({@code --query druid}). Not run by {@code mvn verify}.
 *
 * <pre>
 * mvn -q -o -pl fleet -am install -DskipTests
 * mvn -q -o -pl fleet test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd fleet
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.fleet.druid.SpanPipelineBenchmark [agents=4] [spansPerFrame=500] [seconds=60] \
 *      [lagRate=2000] [probes=21]
 * </pre>
 *
 * <ol>
 *   <li>Throughput: the senders go as fast as the collectors read (TCP back-pressure only) for {@code seconds};
 *       the rate into Kafka is what both collectors had acknowledged ({@code acks=all}) over that window, the rate
 *       into Druid the rows Druid's spans datasource gained from the window's start until it holds every span
 *       published, divided by that time (Druid catches up with the backlog Kafka holds).</li>
 *   <li>Lag: the senders paced at {@code lagRate} spans/s in all, and {@code probes} probe traces of one span
 *       each, one after the other, sent to collector A; each probe's lag is the time from its frame written to
 *       the query collector answering {@code /api/traces/{id}} with it.</li>
 * </ol>
 */
public final class SpanPipelineBenchmark {
    private static final Duration CATCH_UP = Duration.ofMinutes(20);

    public static void main(String[] args) throws Exception {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int spansPerFrame = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        int lagRate = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
        int probes = args.length > 4 ? Integer.parseInt(args[4]) : 21;
        Path work = Files.createTempDirectory("argus-pipeline-bench");
        DruidSpecs specs = new DruidSpecs(new DruidDatasources("argus-"));
        try (KafkaBroker kafka = KafkaBroker.start(KafkaInstall.pinned(), work.resolve("kafka"));
             DruidCluster druid = DruidCluster.start(DruidCluster.install(), work.resolve("druid"),
                     DruidCluster.DEFAULT_WORKER_CAPACITY, System.out)) {
            kafka.createTopics(3, specs.all().toArray(String[]::new));
            RetentionRules.defaults().apply(druid.api(), specs.datasources());
            new DruidIngestion(druid.api(), specs).startSupervisors(kafka.bootstrapServers());
            try (Collector a = ingest(kafka); Collector b = ingest(kafka);
                 Collector query = Collector.start(CollectorConfig.builder().httpPort(0).ingestPort(0)
                         .dataDir(work.resolve("query")).druidQuery(new DruidSettings(URI.create(druid.routerUrl()),
                                 "argus-", Duration.ofSeconds(60))).build())) {
                List<Collector> ingest = List.of(a, b);
                Api api = new Api(query);
                System.out.printf("first probe (supervisor tasks starting): %d ms%n", probe(a, api, CATCH_UP));

                // 1. throughput
                long now = System.currentTimeMillis() * 1_000_000L;
                List<byte[]> frames = KafkaIngestBenchmark.frames(spansPerFrame, now - 1_000_000_000_000L);
                long rows0 = rows(druid);
                long published0 = published(ingest);
                long t0 = System.nanoTime();
                try (Senders s = new Senders(ingest, agents, frames, spansPerFrame, 0)) {
                    Thread.sleep(seconds * 1000L);
                }
                long published1 = published(ingest);
                double sendSeconds = (System.nanoTime() - t0) / 1e9;
                double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                long rowsAtStop = rows(druid);
                long target = rows0 + (published1 - published0);
                druid.api().awaitSql("SELECT COUNT(*) AS n FROM \"argus-spans\"",
                        r -> r.get(0).path("n").asLong() >= target, CATCH_UP);
                double druidSeconds = (System.nanoTime() - t0) / 1e9;
                System.out.printf("throughput: %d senders through 2 ingest collectors: %,.0f spans/s into Kafka"
                                + " (%,d spans in %.1f s); Druid had %,d of them when the senders stopped and all"
                                + " %.1f s after the start: %,.0f spans/s into Druid (one ingestion task);"
                                + " load %.2f%n", agents, (published1 - published0) / sendSeconds,
                        published1 - published0, sendSeconds, rowsAtStop - rows0, druidSeconds,
                        (published1 - published0) / druidSeconds, load);

                // 2. lag under a paced load
                frames = KafkaIngestBenchmark.frames(spansPerFrame,
                        System.currentTimeMillis() * 1_000_000L - 1_000_000_000_000L);
                List<Long> lags = new ArrayList<>();
                long p0 = published(ingest);
                long l0 = System.nanoTime();
                try (Senders s = new Senders(ingest, agents, frames, spansPerFrame, lagRate)) {
                    for (int i = 0; i < probes; i++) {
                        lags.add(probe(a, api, Duration.ofMinutes(5)));
                        Thread.sleep(500);
                    }
                }
                double paced = (published(ingest) - p0) / ((System.nanoTime() - l0) / 1e9);
                Collections.sort(lags);
                System.out.printf("lag at %,.0f spans/s: request sent -> queryable through the query collector:"
                                + " median %d ms, p95 %d ms, min %d ms, max %d ms (%d probes); load %.2f%n", paced,
                        lags.get(lags.size() / 2), lags.get((int) Math.ceil(0.95 * lags.size()) - 1), lags.get(0),
                        lags.get(lags.size() - 1), lags.size(),
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            }
        }
    }

    private static Collector ingest(KafkaBroker kafka) {
        return Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(0)
                .kafka(KafkaSettings.of(kafka.bootstrapServers()).withTopicPrefix("argus-")).build());
    }

    private static long published(List<Collector> ingest) {
        long n = 0;
        for (Collector c : ingest) {
            n += (long) new Api(c).metric("argus_kafka_records_published_total{topic=\"argus-spans\"}");
        }
        return n;
    }

    private static long rows(DruidCluster druid) throws Exception {
        try {
            return druid.api().sql("SELECT COUNT(*) AS n FROM \"argus-spans\"").get(0).path("n").asLong();
        } catch (IOException e) {
            return 0; // no segment yet
        }
    }

    /** One span of a new trace to collector {@code c}; milliseconds until the query collector returns it. */
    private static long probe(Collector c, Api query, Duration timeout) throws Exception {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long hi = r.nextLong();
        long lo = r.nextLong();
        String id = String.format("%016x%016x", hi, lo);
        try (TestAgent agent = new TestAgent(c.ingestPort())) {
            agent.hello("probe", "probe-1");
            long sent = System.nanoTime();
            agent.spans(SpanBatch.newBuilder().addSpans(Span.newBuilder().setTraceIdHigh(hi).setTraceIdLow(lo)
                    .setSpanId(r.nextLong() | 1).setKind(SpanKind.SPAN_KIND_SERVER).setName("GET /probe")
                    .setStartEpochNanos(System.currentTimeMillis() * 1_000_000L).setDurationNanos(1_000_000)
                    .setStatus(SpanStatus.SPAN_STATUS_OK)).build());
            long deadline = sent + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                if (query.get("/api/traces/" + id).status() == 200) {
                    return (System.nanoTime() - sent) / 1_000_000;
                }
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("probe trace " + id + " not queryable within " + timeout);
    }

    /**
     * Sender threads, alternating between the collectors, writing the frames in turn: unpaced (TCP back-pressure)
     * or at {@code spansPerSecond} in all.
     */
    private static final class Senders implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();

        Senders(List<Collector> ingest, int agents, List<byte[]> frames, int spansPerFrame, int spansPerSecond) {
            long nanosPerFrame = spansPerSecond == 0 ? 0 : (long) (1e9 * spansPerFrame * agents / spansPerSecond);
            for (int a = 0; a < agents; a++) {
                int agent = a;
                Collector c = ingest.get(a % ingest.size());
                Thread t = new Thread(() -> send(c, agent, frames, nanosPerFrame), "sender-" + a);
                t.start();
                threads.add(t);
            }
        }

        private void send(Collector c, int agent, List<byte[]> frames, long nanosPerFrame) {
            try (Socket s = new Socket("127.0.0.1", c.ingestPort())) {
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 1 << 16));
                KafkaIngestBenchmark.write(out, Frame.newBuilder()
                        .setHandshake(TestAgent.handshake("bench", "agent-" + agent)).build().toByteArray());
                long next = System.nanoTime();
                for (int i = agent; running.get(); i++) {
                    KafkaIngestBenchmark.write(out, frames.get(i % frames.size()));
                    if (nanosPerFrame > 0) {
                        out.flush();
                        next += nanosPerFrame;
                        long wait = next - System.nanoTime();
                        if (wait > 0) {
                            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                        }
                    }
                }
                out.flush();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
