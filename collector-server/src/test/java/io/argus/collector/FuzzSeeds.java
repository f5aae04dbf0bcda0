package io.argus.collector;

import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Frame;
import io.argus.protocol.Gauge;
import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the seed corpus of the three fuzz tests into {@code src/test/resources} (run from the module folder:
 * {@code java -cp target/test-classes:target/classes:$(cat target/cp.txt) io.argus.collector.FuzzSeeds}). The seeds
 * are committed; this says how they were made and makes new ones when the protocol grows.
 */
public final class FuzzSeeds {
    static final Path RESOURCES = Path.of("src/test/resources/io/argus/collector");
    static final long NOW = 1_800_000_000_000_000_000L;

    public static void main(String[] args) throws IOException {
        Path agent = RESOURCES.resolve("ingest/AgentFrameFuzzTestInputs/anyByteStreamIsHandledOrRejected");
        Handshake hello = TestAgent.handshake("seed", "seed-1");
        byte[] session = concat(frame(Frame.newBuilder().setHandshake(hello).build()),
                frame(Frame.newBuilder().setSpans(SpanBatch.newBuilder()
                        .addSpans(Spans.span(1, 2, 3, 0, SpanKind.SPAN_KIND_SERVER, "GET /a", NOW, 1_000,
                                SpanStatus.SPAN_STATUS_OK, "http.route", "/a"))
                        .addSpans(Spans.span(1, 2, 4, 3, SpanKind.SPAN_KIND_CLIENT, "GET /b", NOW + 10, 500,
                                SpanStatus.SPAN_STATUS_ERROR, "peer", "b:80"))).build()),
                frame(Frame.newBuilder().setMetrics(MetricBatch.newBuilder().setTimestampMs(NOW / 1_000_000)
                        .setIntervalMs(10_000).addBucketBoundsNanos(1_000).addBucketBoundsNanos(10_000)
                        .addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER)
                                .setMethod("GET").setTarget("/a").setStatus(200).setCount(2).setSumNanos(3_000)
                                .setMinNanos(1_000).setMaxNanos(2_000).addBucketCounts(1).addBucketCounts(1))
                        .addJvm(Gauge.newBuilder().setName("jvm.heap.used").setValue(1e6))).build()),
                frame(Frame.newBuilder().setHeartbeat(Heartbeat.newBuilder().setTimestampMs(NOW / 1_000_000)
                        .setSentSpans(2)).build()));
        write(agent, "session-64-byte-writes", concat(new byte[] {0x3f}, session));
        byte[] acked = concat(frame(Frame.newBuilder().setHandshake(hello.toBuilder().setAcks(true)).build()),
                frame(Frame.newBuilder().setSpans(SpanBatch.newBuilder().addSpans(Spans.simple(7, 7))).build()));
        write(agent, "acks-1-byte-writes", concat(new byte[] {0x00}, acked));
        write(agent, "token", concat(new byte[] {0x7f}, frame(Frame.newBuilder().setHandshake(hello.toBuilder()
                .setToken("fuzz-token")).build()), frame(Frame.newBuilder().setSpans(SpanBatch.newBuilder()
                .addSpans(Spans.simple(8, 8))).build())));
        write(agent, "http-garbage", concat(new byte[] {0x3f}, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII)));
        write(agent, "high-bit-length", new byte[] {0x3f, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
        write(agent, "too-large-after-handshake", concat(new byte[] {0x3f},
                frame(Frame.newBuilder().setHandshake(hello).build()), TestAgent.lengthPrefix(70_000), new byte[64]));
        write(agent, "truncated", concat(new byte[] {0x10}, frame(Frame.newBuilder().setHandshake(hello).build()),
                TestAgent.lengthPrefix(100), new byte[10]));
        write(agent, "spans-first", concat(new byte[] {0x3f}, frame(Frame.newBuilder().setSpans(SpanBatch
                .newBuilder().addSpans(Spans.simple(9, 9))).build())));
        write(agent, "control-character", concat(new byte[] {0x3f}, frame(Frame.newBuilder().setHandshake(hello
                .toBuilder().setService("se\u0007ed")).build())));
        write(agent, "far-future", concat(new byte[] {0x3f}, frame(Frame.newBuilder().setHandshake(hello).build()),
                frame(Frame.newBuilder().setSpans(SpanBatch.newBuilder().addSpans(Spans.span(1, 5, 5, 0,
                        SpanKind.SPAN_KIND_SERVER, "x", Long.MAX_VALUE, 1, SpanStatus.SPAN_STATUS_OK))).build())));

        Path otlp = RESOURCES.resolve("otlp/OtlpRequestFuzzTestInputs/anyBodyGetsAnAnswerThatIsNoServerError");
        byte[] traces = ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .setResource(resource("seed")).addScopeSpans(ScopeSpans.newBuilder()
                        .addSpans(Span.newBuilder().setTraceId(id(16, 1)).setSpanId(id(8, 2))
                                .setName("GET /a").setKind(Span.SpanKind.SPAN_KIND_SERVER)
                                .setStartTimeUnixNano(NOW).setEndTimeUnixNano(NOW + 1_000)
                                .addAttributes(attribute("http.request.method", "GET"))
                                .addAttributes(attribute("http.route", "/a"))))).build().toByteArray();
        byte[] metrics = ExportMetricsServiceRequest.newBuilder().addResourceMetrics(ResourceMetrics.newBuilder()
                .setResource(resource("seed")).addScopeMetrics(ScopeMetrics.newBuilder()
                        .addMetrics(Metric.newBuilder().setName("jvm.thread.count").setGauge(
                                io.opentelemetry.proto.metrics.v1.Gauge.newBuilder().addDataPoints(NumberDataPoint
                                        .newBuilder().setAsInt(12).setTimeUnixNano(NOW))))
                        .addMetrics(Metric.newBuilder().setName("http.server.request.duration").setHistogram(
                                Histogram.newBuilder().addDataPoints(HistogramDataPoint.newBuilder().setCount(3)
                                        .setSum(0.3).addExplicitBounds(0.1).addBucketCounts(1).addBucketCounts(2)
                                        .setTimeUnixNano(NOW)
                                        .addAttributes(attribute("http.request.method", "GET"))))))).build()
                .toByteArray();
        write(otlp, "traces", concat(new byte[] {0}, traces));
        write(otlp, "metrics", concat(new byte[] {1}, metrics));
        write(otlp, "traces-gzipped-by-the-test", concat(new byte[] {2}, traces));
        write(otlp, "declared-gzip-but-not", concat(new byte[] {4}, traces));
        write(otlp, "garbage", concat(new byte[] {0}, "\u00ff\u00ff not protobuf".getBytes(StandardCharsets.ISO_8859_1)));

        Path api = RESOURCES.resolve("http/ApiParametersFuzzTestInputs/anyParametersGetJsonAndNoServerError");
        String[] queries = {
            "\u0000service=web&limit=5&minDurationMs=1.5",
            "\u0000range=1h&status=error&sort=duration&tag=http.route%3D%2Fx&maxDurationMs=10",
            "\u0000from=1&to=9223372036854775807",
            "\u0001service=web&kind=server&range=15m",
            "\u0002service=web",
            "\u0003service=web&route=%2Fx&method=GET&range=6h&step=5m",
            "\u0004service=web&from=1764026400000&to=1764030000000",
            "\u0005range=24h",
            "\u0006source=web&target=ext%3Ax%3A80&sort=time&limit=10",
            "\u000700000000000000010000000000000001",
            "\u0007zz",
        };
        for (int i = 0; i < queries.length; i++) {
            write(api, "query-" + i, queries[i].getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    private static Resource resource(String service) {
        return Resource.newBuilder().addAttributes(attribute("service.name", service)).build();
    }

    private static KeyValue attribute(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    private static ByteString id(int length, int value) {
        byte[] id = new byte[length];
        id[length - 1] = (byte) value;
        return ByteString.copyFrom(id);
    }

    private static byte[] frame(Frame frame) {
        return concat(TestAgent.lengthPrefix(frame.getSerializedSize()), frame.toByteArray());
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), bytes);
    }
}
