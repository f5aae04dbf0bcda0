package io.argus.collector.storage;

import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.storage.duckdb.DuckDbStorage;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spans and metric rows past their age are deleted through the storage interface; newer ones stay. */
class RetentionTest {
    static final long MS = 1_000_000L;
    static final Instant NOW = Instant.parse("2030-01-15T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @TempDir
    Path dir;

    static long agoMs(Duration d) {
        return NOW.minus(d).toEpochMilli();
    }

    static SpanBatch spanAt(long traceLow, long startMs) {
        return SpanBatch.newBuilder().addSpans(span(1, traceLow, traceLow, 0, SpanKind.SPAN_KIND_SERVER, "GET /x",
                startMs * MS, 5 * MS, SpanStatus.SPAN_STATUS_OK)).build();
    }

    static MetricBatch metricsAt(long tsMs) {
        return MetricBatch.newBuilder().setTimestampMs(tsMs).setIntervalMs(10_000)
                .addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER).setMethod("GET")
                        .setTarget("/x").setStatus(200).setCount(1).setSumNanos(MS).setMinNanos(MS).setMaxNanos(MS))
                .addJvm(Gauge.newBuilder().setName("jvm.heap.used").setValue(tsMs))
                .build();
    }

    @Test
    void deletesOnlyWhatIsOlderThanTheAge() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (DuckDbStorage storage = DuckDbStorage.open(dir, 10_000, meters)) {
            Source src = new Source("svc", "svc-1");
            storage.offerSpans(src, spanAt(1, agoMs(Duration.ofDays(8))));
            storage.offerSpans(src, spanAt(2, agoMs(Duration.ofDays(6))));
            storage.offerSpans(src, spanAt(3, agoMs(Duration.ofMinutes(1))));
            storage.offerMetrics(src, metricsAt(agoMs(Duration.ofDays(31))));
            storage.offerMetrics(src, metricsAt(agoMs(Duration.ofDays(29))));
            assertThat(storage.flush(Duration.ofSeconds(20))).isTrue();

            new Retention(storage, CLOCK, Duration.ofDays(7), Duration.ofDays(30), meters).run();

            assertThat(storage.trace(1, 1)).isEmpty();
            assertThat(storage.trace(1, 2)).isPresent();
            assertThat(storage.trace(1, 3)).isPresent();
            assertThat(storage.callMetrics("svc", "server")).singleElement()
                    .satisfies(m -> assertThat(m.count()).isEqualTo(1));
            assertThat(storage.jvmMetrics("svc", 10).instances().get(0).series().get("jvm.heap.used"))
                    .extracting(JvmPoint::tsMs).containsExactly(agoMs(Duration.ofDays(29)));
            assertThat(meters.get("argus.collector.retention.deleted").tag("data", "spans").counter().count())
                    .isEqualTo(1);
            assertThat(meters.get("argus.collector.retention.deleted").tag("data", "metrics").counter().count())
                    .isEqualTo(2); // one call cell, one gauge sample

            // a zero age keeps that kind of data
            new Retention(storage, CLOCK, Duration.ZERO, Duration.ofDays(1), meters).run();
            assertThat(storage.trace(1, 2)).isPresent();
            assertThat(storage.callMetrics("svc", "server")).isEmpty();
        }
    }

    @Test
    void ingestGoesOnWhileAPassRuns() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (DuckDbStorage storage = DuckDbStorage.open(dir, 1_000_000, meters)) {
            Source src = new Source("svc", "svc-1");
            SpanBatch.Builder old = SpanBatch.newBuilder();
            for (int i = 1; i <= 20_000; i++) {
                old.addSpans(span(2, i, i, 0, SpanKind.SPAN_KIND_SERVER, "old", agoMs(Duration.ofDays(10)) * MS,
                        MS, SpanStatus.SPAN_STATUS_OK));
            }
            storage.offerSpans(src, old.build());
            assertThat(storage.flush(Duration.ofSeconds(30))).isTrue();

            AtomicBoolean passDone = new AtomicBoolean();
            Thread pass = new Thread(() -> {
                new Retention(storage, CLOCK, Duration.ofDays(7), Duration.ZERO, meters).run();
                passDone.set(true);
            });
            pass.start();
            int offered = 0;
            for (int i = 1; i <= 200; i++) {
                while (!storage.offerSpans(src, spanAt(1_000_000 + i, agoMs(Duration.ofSeconds(i))))) {
                    Thread.sleep(1);
                }
                offered++;
            }
            pass.join(30_000);
            assertThat(passDone).isTrue();
            assertThat(storage.flush(Duration.ofSeconds(30))).isTrue();
            assertThat(meters.get("argus.collector.retention.errors").counter().count()).isZero();
            assertThat(meters.get("argus.collector.retention.deleted").tag("data", "spans").counter().count())
                    .isEqualTo(20_000);
            assertThat(meters.get("argus.collector.spans.stored").counter().count()).isEqualTo(20_000 + offered);
            for (int i = 1; i <= 200; i++) {
                assertThat(storage.trace(1, 1_000_000 + i)).as("span %d", i).isPresent();
            }
            assertThat(storage.trace(2, 1)).isEmpty();
        }
    }

    @Test
    void collectorRunsAPassAtStart() throws Exception {
        long oldStartMs = System.currentTimeMillis() - Duration.ofDays(8).toMillis();
        long newStartMs = System.currentTimeMillis() - 1_000;
        try (Collector keepAll = Collector.start(TestConfigs.ephemeral().dataDir(dir).build());
             TestAgent agent = new TestAgent(keepAll.ingestPort())) {
            agent.hello("svc", "svc-1").spans(spanAt(0xa1, oldStartMs)).spans(spanAt(0xa2, newStartMs));
            new Api(keepAll).await("/api/traces?service=svc", j -> j.size() == 2);
        }
        try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(dir)
                .retentionSpans(Duration.ofDays(7)).build())) {
            Api api = new Api(c);
            api.await("/api/traces?service=svc", j -> j.size() == 1);
            assertThat(api.get("/api/traces/" + Ids.traceIdHex(1, 0xa1)).status()).isEqualTo(404);
            assertThat(api.get("/api/traces/" + Ids.traceIdHex(1, 0xa2)).status()).isEqualTo(200);
            assertThat(api.awaitMetric("argus_collector_retention_deleted_total{data=\"spans\"}", 1)).isEqualTo(1);
        }
    }
}
