package io.argus.collector.storage.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.ResendingAgent;
import io.argus.collector.testing.SmallDisk;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.RefusalReason;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory on a small file system that fills up under acknowledged traffic (see {@link SmallDisk} for
 * the real tmpfs and its fallback): the writer survives the failed cycles, agent connections are closed and new
 * ones refused so that agents keep their unacknowledged frames, OTLP answers 503, {@code /metrics} and
 * {@code /api/status} say storage is failing; when space returns, storing resumes on its own and every batch that
 * was acknowledged (agent frames) or answered 200 (OTLP) is stored.
 */
class FullDiskTest {
    static final int SPANS_PER_BATCH = 50;
    static final String FILLER = "x".repeat(300);

    @TempDir
    Path tmp;

    @Test
    void fullDiskStopsAcceptingAndStoringResumesWhenSpaceReturns() throws Exception {
        try (SmallDisk disk = SmallDisk.create(tmp)) {
            System.out.println("FullDiskTest: the full disk is " + disk.kind());
            try (Collector c = Collector.start(TestConfigs.ephemeral().dataDir(disk.dir())
                    .otlpHttpPort(CollectorConfig.ANY_FREE_PORT).build());
                 ResendingAgent agent = new ResendingAgent(c.ingestPort(), "disk", "disk-1", 64)) {
                Api api = new Api(c);
                long[] next = {1};
                for (int i = 0; i < 20; i++) {
                    agent.offer(batch(next[0]++));
                }
                assertThat(agent.awaitAllAcked(Duration.ofSeconds(20))).as("healthy storage acknowledges").isTrue();
                List<Long> otlpStored = new ArrayList<>();
                assertThat(postOtlp(c, 1_000_001)).isEqualTo(200);
                otlpStored.add(1_000_001L);

                disk.fill();
                AtomicBoolean feeding = new AtomicBoolean(true);
                Thread feeder = new Thread(() -> {
                    while (feeding.get()) {
                        agent.offer(batch(next[0]++));
                        sleep(20);
                    }
                }, "feeder");
                feeder.start();
                try {
                    // OTLP requests taken before the failure shows must be stored later; once it shows, 503
                    long otlpTrace = 1_000_002;
                    int status = 200;
                    long deadline = System.currentTimeMillis() + 30_000;
                    while (status == 200 && System.currentTimeMillis() < deadline) {
                        status = postOtlp(c, otlpTrace);
                        if (status == 200) {
                            otlpStored.add(otlpTrace);
                        }
                        otlpTrace++;
                        sleep(100);
                    }
                    assertThat(status).as("OTLP while storage fails").isEqualTo(503);
                    assertThat(api.metric("argus_collector_storage_failing")).isEqualTo(1);
                    JsonNode status1 = api.json("/api/status");
                    assertThat(status1.path("storage").path("state").asText()).isEqualTo("failing");
                    assertThat(status1.path("storage").path("reason").asText()).isNotEmpty();
                    await("the agent's connection closed and new ones refused", Duration.ofSeconds(10),
                            () -> agent.closedByCollector() >= 2 && !agent.connected());
                    assertThat(agent.refusals()).as("the agent was told why").anySatisfy(f -> {
                        assertThat(f.getRefusal().getReason()).isEqualTo(RefusalReason.REFUSAL_REASON_UNAVAILABLE);
                        assertThat(f.getRefusal().getMessage()).contains("storage is failing");
                    });
                    double depth = api.metric("argus_collector_store_queue_depth");
                    sleep(1_000);
                    assertThat(api.metric("argus_collector_store_queue_depth")).as("queue no longer grows")
                            .isLessThanOrEqualTo(depth);

                    disk.free();
                    await("storage recovered", Duration.ofSeconds(30),
                            () -> api.metric("argus_collector_storage_failing") == 0);
                    await("the agent reconnected", Duration.ofSeconds(10), agent::connected);
                } finally {
                    feeding.set(false);
                    feeder.join();
                }
                assertThat(agent.awaitAllAcked(Duration.ofSeconds(60))).as("everything acknowledged after").isTrue();
                assertThat(c.flush(Duration.ofSeconds(20))).isTrue();
                for (SpanBatch b : agent.acked()) {
                    String id = String.format("%016x%016x", 0xd15c, b.getSpans(0).getTraceIdLow());
                    assertThat(api.json("/api/traces/" + id).path("spans").size()).as(id)
                            .isEqualTo(SPANS_PER_BATCH);
                }
                for (long t : otlpStored) {
                    String id = String.format("%016x%016x", 0, t);
                    assertThat(api.get("/api/traces/" + id).status()).as("OTLP trace answered 200: " + id)
                            .isEqualTo(200);
                }
                assertThat(postOtlp(c, 2_000_000)).isEqualTo(200);
                // the request just answered may still be in the queue: it drains
                await("the store queue drained", Duration.ofSeconds(20),
                        () -> api.metric("argus_collector_store_queue_depth") == 0);
                System.out.println("FullDiskTest: " + agent.acked().size() + " batches acknowledged and stored, "
                        + agent.connects() + " connections, " + agent.closedByCollector() + " closed or refused, "
                        + otlpStored.size() + " OTLP requests answered 200 and stored");
            }
        }
    }

    static SpanBatch batch(long trace) {
        SpanBatch.Builder b = SpanBatch.newBuilder();
        long start = System.currentTimeMillis() * 1_000_000L;
        for (int i = 1; i <= SPANS_PER_BATCH; i++) {
            b.addSpans(Spans.span(0xd15c, trace, i, i == 1 ? 0 : 1, SpanKind.SPAN_KIND_SERVER, "GET /disk", start + i,
                    1_000, SpanStatus.SPAN_STATUS_OK, "filler", FILLER + trace + "-" + i));
        }
        return b.build();
    }

    static int postOtlp(Collector c, long trace) throws Exception {
        byte[] traceId = ByteBuffer.allocate(16).putLong(0).putLong(trace).array();
        long now = System.currentTimeMillis() * 1_000_000L;
        ExportTraceServiceRequest req = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans
                .newBuilder().setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder()
                        .setKey("service.name").setValue(AnyValue.newBuilder().setStringValue("disk-otlp"))))
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(Span.newBuilder()
                        .setTraceId(ByteString.copyFrom(traceId)).setSpanId(ByteString.copyFrom(new byte[] {0, 0, 0, 0,
                            0, 0, 0, 1})).setName("otlp").setStartTimeUnixNano(now).setEndTimeUnixNano(now + 1_000))))
                .build();
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + c.otlpHttpPort() + "/v1/traces"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(req.toByteArray())).build(),
                HttpResponse.BodyHandlers.ofByteArray()).statusCode();
    }

    static void await(String what, Duration timeout, BooleanSupplier done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": not within " + timeout);
            }
            sleep(50);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
