package io.argus.collector.ingest;

import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.Gauge;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Times far outside the collector's clock (a span starting in 2262, a metric batch stamped in the far future) are
 * not stored, where they would top every list and outlive retention: they are dropped one by one and counted, and
 * the rest of their frame or request is stored and acknowledged as usual.
 */
class TimeWindowTest {
    static final long NOW_NANOS = System.currentTimeMillis() * 1_000_000L;

    @TempDir
    Path dir;

    @Test
    void farFutureSpansAndMetricsFromAnAgentAreDroppedAndCounted() throws Exception {
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(dir).build());
             TestAgent agent = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            agent.helloWithAcks("skewed", "skewed-1");
            assertThat(agent.read(10_000).hasHandshakeReply()).isTrue();
            agent.spans(SpanBatch.newBuilder()
                    .addSpans(span(0x5, 1, 1, 0, SpanKind.SPAN_KIND_SERVER, "GET /2262", Long.MAX_VALUE, 1_000,
                            SpanStatus.SPAN_STATUS_OK))
                    .addSpans(span(0x5, 2, 1, 0, SpanKind.SPAN_KIND_SERVER, "GET /now", NOW_NANOS, 1_000,
                            SpanStatus.SPAN_STATUS_OK))
                    .build());
            agent.metrics(MetricBatch.newBuilder().setTimestampMs(Long.MAX_VALUE / 1_000_000L).setIntervalMs(10_000)
                    .addJvm(Gauge.newBuilder().setName("jvm.heap.used").setValue(1)).build());
            agent.awaitAck(2, 20_000);

            assertThat(api.get("/api/traces/" + String.format("%016x%016x", 0x5, 1)).status()).isEqualTo(404);
            assertThat(api.json("/api/traces/" + String.format("%016x%016x", 0x5, 2)).path("spans")).hasSize(1);
            assertThat(api.json("/api/traces?limit=10").toString()).doesNotContain("/2262");
            assertThat(api.json("/api/metrics/jvm?service=skewed").path("instances")).isEmpty();
            assertThat(api.metric("argus_collector_out_of_window_total{data=\"spans\"}")).isEqualTo(1);
            assertThat(api.metric("argus_collector_out_of_window_total{data=\"metrics\"}")).isEqualTo(1);
            assertThat(agent.closedByServer(200)).as("the connection stays up").isFalse();
        }
    }

    @Test
    void farFutureOtlpSpansAreRefusedOneByOne() throws Exception {
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(dir)
                .otlpHttpPort(CollectorConfig.ANY_FREE_PORT).build())) {
            Api api = new Api(collector);
            ExportTraceServiceRequest request = ExportTraceServiceRequest.newBuilder().addResourceSpans(
                    ResourceSpans.newBuilder().setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder()
                                    .setKey("service.name").setValue(AnyValue.newBuilder().setStringValue("otel-skewed"))))
                            .addScopeSpans(ScopeSpans.newBuilder()
                                    .addSpans(otlpSpan(1, Long.MAX_VALUE - 1_000, "in 2262"))
                                    .addSpans(otlpSpan(2, NOW_NANOS, "now")))).build();
            HttpResponse<byte[]> res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + collector.otlpHttpPort() + "/v1/traces"))
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(request.toByteArray())).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(res.statusCode()).isEqualTo(200);
            ExportTraceServiceResponse answer = ExportTraceServiceResponse.parseFrom(res.body());
            assertThat(answer.getPartialSuccess().getRejectedSpans()).isEqualTo(1);
            assertThat(answer.getPartialSuccess().getErrorMessage()).contains("in 2262").contains("future");
            api.await("/api/traces?service=otel-skewed", j -> j.size() == 1);
            assertThat(api.json("/api/traces?service=otel-skewed").toString()).doesNotContain("in 2262");
        }
    }

    private static io.opentelemetry.proto.trace.v1.Span otlpSpan(int seed, long startNanos, String name) {
        byte[] trace = new byte[16];
        Arrays.fill(trace, (byte) (0x40 + seed));
        byte[] spanId = new byte[8];
        Arrays.fill(spanId, (byte) (0x40 + seed));
        return io.opentelemetry.proto.trace.v1.Span.newBuilder().setTraceId(ByteString.copyFrom(trace))
                .setSpanId(ByteString.copyFrom(spanId)).setName(name)
                .setKind(io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_SERVER)
                .setStartTimeUnixNano(startNanos).setEndTimeUnixNano(startNanos + 1_000).build();
    }
}
