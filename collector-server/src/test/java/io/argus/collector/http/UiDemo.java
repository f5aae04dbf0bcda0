package io.argus.collector.http;

import io.argus.collector.Collector;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Manual UI check: starts a collector and feeds it a little realistic data (two services calling each other),
 * then keeps running until killed.
 *
 * <pre>
 * mvn -q -o -pl protocol,collector-server test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd collector-server
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) io.argus.collector.http.UiDemo [httpPort] [dataDir] [rules.yaml]
 * </pre>
 */
public final class UiDemo {
    public static void main(String[] args) throws Exception {
        int httpPort = args.length > 0 ? Integer.parseInt(args[0]) : 9897;
        Path dir = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("argus-ui");
        Collector c = Collector.start(TestConfigs.ephemeral().httpPort(httpPort).dataDir(dir)
                .alertRules(args.length > 2 ? Path.of(args[2]) : null).build());
        Runtime.getRuntime().addShutdownHook(new Thread(c::close));
        SplittableRandom rnd = new SplittableRandom(7);
        long[] bounds = {1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000};
        try (TestAgent front = new TestAgent(c.ingestPort()); TestAgent back = new TestAgent(c.ingestPort())) {
            front.hello("front", "front-1");
            back.hello("back", "back-1");
            long now = System.currentTimeMillis();
            for (int round = 0; round < 30; round++) {
                long ts = now - (30 - round) * 10_000L;
                SpanBatch.Builder fs = SpanBatch.newBuilder();
                SpanBatch.Builder bs = SpanBatch.newBuilder();
                for (int t = 0; t < 3; t++) {
                    long hi = rnd.nextLong();
                    long lo = rnd.nextLong();
                    long start = (ts + t * 1_000L) * 1_000_000L;
                    long total = 4_000_000L + rnd.nextLong(30_000_000L);
                    boolean err = rnd.nextInt(8) == 0;
                    long root = rnd.nextLong() | 1;
                    long client = rnd.nextLong() | 1;
                    long server = rnd.nextLong() | 1;
                    long db = rnd.nextLong() | 1;
                    fs.addSpans(Spans.span(hi, lo, root, 0, SpanKind.SPAN_KIND_SERVER, "GET /front/call", start, total,
                            err ? SpanStatus.SPAN_STATUS_ERROR : SpanStatus.SPAN_STATUS_OK, "http.method", "GET",
                            "http.status_code", err ? "500" : "200", "http.route", "/front/call"));
                    fs.addSpans(Spans.span(hi, lo, client, root, SpanKind.SPAN_KIND_CLIENT, "GET back:8081",
                            start + 500_000, total - 1_500_000, SpanStatus.SPAN_STATUS_OK, "peer", "back:8081"));
                    bs.addSpans(Spans.span(hi, lo, server, client, SpanKind.SPAN_KIND_SERVER, "GET /back/data",
                            start + 900_000, total - 2_500_000, err ? SpanStatus.SPAN_STATUS_ERROR
                                    : SpanStatus.SPAN_STATUS_OK, "http.method", "GET"));
                    bs.addSpans(Spans.span(hi, lo, db, server, SpanKind.SPAN_KIND_INTERNAL, "compute",
                            start + 1_200_000, (total - 3_000_000) / 2, SpanStatus.SPAN_STATUS_UNSET));
                }
                front.spans(fs.build());
                back.spans(bs.build());
                for (TestAgent a : new TestAgent[] {front, back}) {
                    boolean isFront = a == front;
                    MetricBatch.Builder m = MetricBatch.newBuilder().setTimestampMs(ts).setIntervalMs(10_000);
                    for (long b : bounds) {
                        m.addBucketBoundsNanos(b);
                    }
                    m.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER).setMethod("GET")
                            .setTarget(isFront ? "/front/call" : "/back/data").setStatus(200).setCount(120)
                            .setErrors(0).setSumNanos(120 * 6_000_000L).setMinNanos(900_000).setMaxNanos(48_000_000)
                            .addBucketCounts(5).addBucketCounts(30).addBucketCounts(50).addBucketCounts(25)
                            .addBucketCounts(7).addBucketCounts(3));
                    if (isFront) {
                        m.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_CLIENT)
                                .setMethod("GET").setTarget("back:8081").setStatus(200).setCount(120).setErrors(2)
                                .setSumNanos(120 * 5_000_000L).setMinNanos(700_000).setMaxNanos(40_000_000)
                                .addBucketCounts(8).addBucketCounts(35).addBucketCounts(50).addBucketCounts(20)
                                .addBucketCounts(5).addBucketCounts(2));
                        m.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_DB)
                                .setMethod("SELECT").setTarget("postgresql://db:5432/orders").setStatus(0).setCount(240)
                                .setErrors(1).setSumNanos(240 * 1_200_000L).setMinNanos(300_000).setMaxNanos(9_000_000)
                                .addBucketCounts(150).addBucketCounts(70).addBucketCounts(15).addBucketCounts(5));
                        m.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER)
                                .setMethod("GET").setTarget("/front/call").setStatus(500).setCount(3).setErrors(3)
                                .setSumNanos(3 * 20_000_000L).setMinNanos(9_000_000).setMaxNanos(31_000_000)
                                .addBucketCounts(0).addBucketCounts(0).addBucketCounts(0).addBucketCounts(1)
                                .addBucketCounts(1).addBucketCounts(1));
                    }
                    if (!isFront) {
                        // the back service's data stores, and a scheduled job of the front one
                        m.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_DB)
                                .setMethod("GET").setTarget("redis://cache:6379").setStatus(0).setCount(600)
                                .setErrors(0).setSumNanos(600 * 300_000L).setMinNanos(100_000).setMaxNanos(2_000_000)
                                .addBucketCounts(590).addBucketCounts(10));
                        m.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_DB)
                                .setMethod("find").setTarget("mongodb://docs:27017/catalog").setStatus(0).setCount(90)
                                .setErrors(1).setSumNanos(90 * 2_000_000L).setMinNanos(600_000).setMaxNanos(12_000_000)
                                .addBucketCounts(20).addBucketCounts(50).addBucketCounts(15).addBucketCounts(5));
                    } else {
                        m.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_JOB)
                                .setMethod("quartz").setTarget("reports.nightly").setStatus(0).setCount(1)
                                .setErrors(0).setSumNanos(80_000_000L).setMinNanos(80_000_000L).setMaxNanos(80_000_000L)
                                .addBucketCounts(0).addBucketCounts(0).addBucketCounts(0).addBucketCounts(0)
                                .addBucketCounts(0).addBucketCounts(0).addBucketCounts(1));
                    }
                    double heap = (isFront ? 180 : 90) * 1024 * 1024 * (1 + 0.3 * Math.sin(round / 3.0));
                    m.addJvm(Gauge.newBuilder().setName("jvm.memory.heap.used").setValue(heap));
                    m.addJvm(Gauge.newBuilder().setName("jvm.memory.heap.committed").setValue(512.0 * 1024 * 1024));
                    m.addJvm(Gauge.newBuilder().setName("jvm.threads.live").setValue(40 + round % 5));
                    m.addJvm(Gauge.newBuilder().setName("jvm.gc.count{G1 Young Generation}").setValue(round * 2));
                    m.addJvm(Gauge.newBuilder().setName("process.cpu.usage").setValue(0.05 + 0.02 * (round % 4)));
                    m.addJvm(Gauge.newBuilder().setName("jvm.classes.loaded").setValue(8123 + round));
                    a.metrics(m.build());
                }
            }
            front.heartbeat(Heartbeat.newBuilder().setTimestampMs(now).setSentSpans(180).setDroppedSpans(3).build());
            back.heartbeat(Heartbeat.newBuilder().setTimestampMs(now).setSentSpans(180).build());
            System.out.println("UI ready at " + c.httpUrl());
            Thread.currentThread().join();
        }
    }
}
