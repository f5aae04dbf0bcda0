package io.argus.core.export;

import io.argus.core.AgentCounters;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.metrics.LatencyBuckets;
import io.argus.core.trace.RecordedSpan;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;
import com.google.protobuf.UnknownFieldSet;
import io.argus.protocol.Ack;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.CollectorFrame;
import io.argus.protocol.Frame;
import io.argus.protocol.HandshakeReply;
import io.argus.protocol.Refusal;
import io.argus.protocol.RefusalReason;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.protocol.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The agent writes the wire format by hand; the generated classes must read it back exactly. */
class WireFormatTest {

    private static Frame decode(byte[] frame) throws Exception {
        int length = ByteBuffer.wrap(frame).getInt();
        assertThat(length).isEqualTo(frame.length - 4);
        return Frame.parseFrom(ByteBuffer.wrap(frame, 4, length));
    }

    private static Map<String, String> tags(Span span) {
        Map<String, String> tags = new HashMap<>();
        for (Tag tag : span.getTagsList()) {
            tags.put(tag.getKey(), tag.getValue());
        }
        return tags;
    }

    @Test
    void spanBatchDecodesWithGeneratedClasses() throws Exception {
        List<RecordedSpan> spans = new ArrayList<>();
        Tracer tracer = new Tracer(new Sampler(100), spans::add);
        RecordedSpan server = tracer.startServer("GET", "/front/call", null, null, null);
        RecordedSpan client = tracer.startClient("POST", "back.local", 8081, "http://back.local:8081/x?q=é✓𝄞");
        client.tag("custom", "ü".repeat(300));
        client.setHttpStatus(503);
        tracer.end(client, System.nanoTime(), null, true);
        server.setHttpStatus(200);
        tracer.end(server, System.nanoTime(), null, false);

        Frame frame = decode(new SpanEncoder().encode(spans));
        assertThat(frame.getBodyCase()).isEqualTo(Frame.BodyCase.SPANS);
        List<Span> decoded = frame.getSpans().getSpansList();
        assertThat(decoded).hasSize(2);

        Span c = decoded.get(0);
        assertThat(c.getTraceIdHigh()).isEqualTo(client.traceIdHigh());
        assertThat(c.getTraceIdLow()).isEqualTo(client.traceIdLow());
        assertThat(c.getSpanId()).isEqualTo(client.spanId());
        assertThat(c.getParentSpanId()).isEqualTo(server.spanId());
        assertThat(c.getKind()).isEqualTo(SpanKind.SPAN_KIND_CLIENT);
        assertThat(c.getStatus()).isEqualTo(SpanStatus.SPAN_STATUS_ERROR);
        assertThat(c.getName()).isEqualTo("POST back.local");
        assertThat(c.getDurationNanos()).isEqualTo(client.durationNanos());
        assertThat(c.getStartEpochNanos()).isEqualTo(client.startEpochNanos());
        assertThat(tags(c)).containsEntry("http.method", "POST")
                .containsEntry("http.url", "http://back.local:8081/x?q=é✓𝄞")
                .containsEntry("http.status_code", "503")
                .containsEntry("peer", "back.local:8081")
                .containsEntry("custom", "ü".repeat(300));

        Span s = decoded.get(1);
        assertThat(s.getParentSpanId()).isZero();
        assertThat(s.getKind()).isEqualTo(SpanKind.SPAN_KIND_SERVER);
        assertThat(s.getStatus()).isEqualTo(SpanStatus.SPAN_STATUS_OK);
        assertThat(s.getName()).isEqualTo("GET /front/call");
        assertThat(tags(s)).containsEntry("http.path", "/front/call").containsEntry("http.status_code", "200");
    }

    /**
     * The name, the status code and the peer are written from the span's parts, without building their
     * strings: the bytes must be those of the strings the agent used to build ({@code displayName()},
     * {@code Integer.toString}, {@code host + ':' + port}), for every length, alphabet and edge value.
     */
    @Test
    void namesStatusesAndPeersWrittenFromTheirPartsReadAsTheStringsTheyStandFor() throws Exception {
        List<RecordedSpan> spans = new ArrayList<>();
        Tracer tracer = new Tracer(new Sampler(100), spans::add);
        String[] hosts = {"h", "back.local", "bäck.例え.test", "", "x".repeat(200)};
        int[] ports = {-1, 0, 1, 9, 10, 80, 65535, Integer.MAX_VALUE};
        int[] statuses = {-1, 0, 7, 10, 99, 100, 200, 404, 599, 1000, Integer.MAX_VALUE};
        List<String> expectedNames = new ArrayList<>();
        List<String> expectedPeers = new ArrayList<>();
        List<String> expectedStatuses = new ArrayList<>();
        RecordedSpan server = tracer.startServer(null, "/p/ü", null, null, null);
        int n = 0;
        for (String host : hosts) {
            for (int port : ports) {
                RecordedSpan client = tracer.startClient(n % 3 == 0 ? null : "GET", host, port, "http://x/");
                int status = statuses[n++ % statuses.length];
                client.setHttpStatus(status);
                tracer.end(client, System.nanoTime(), null, false);
                expectedNames.add(client.displayName());
                expectedPeers.add(port > 0 ? host + ':' + port : host);
                expectedStatuses.add(status >= 0 ? Integer.toString(status) : null);
            }
        }
        server.setRoute("/p/{id}");
        tracer.end(server, System.nanoTime(), null, false);
        expectedNames.add(server.displayName());

        List<Span> decoded = decode(new SpanEncoder().encode(spans)).getSpans().getSpansList();
        assertThat(decoded).hasSize(expectedNames.size());
        for (int i = 0; i < decoded.size(); i++) {
            assertThat(decoded.get(i).getName()).as("name %d", i).isEqualTo(expectedNames.get(i));
        }
        assertThat(decoded.get(decoded.size() - 1).getName()).isEqualTo("HTTP /p/{id}");
        for (int i = 0; i < expectedPeers.size(); i++) {
            Map<String, String> tags = tags(decoded.get(i));
            String peer = expectedPeers.get(i);
            // an empty host is a tag whose empty value is left out, as before: it reads as ""
            assertThat(tags.get("peer")).as("peer %d", i).isEqualTo(peer);
            assertThat(tags.get("http.status_code")).as("status %d", i).isEqualTo(expectedStatuses.get(i));
        }
    }

    @Test
    void largeBatchesKeepEveryLengthRight() throws Exception {
        List<RecordedSpan> spans = new ArrayList<>();
        Tracer tracer = new Tracer(new Sampler(100), spans::add);
        for (int i = 0; i < 2000; i++) {
            RecordedSpan span = tracer.startServer("GET", "/path/" + i, null, null, null);
            tracer.end(span, System.nanoTime(), null, false);
        }
        Frame frame = decode(new SpanEncoder().encode(spans));
        assertThat(frame.getSpans().getSpansCount()).isEqualTo(2000);
        assertThat(frame.getSpans().getSpans(1999).getName()).isEqualTo("GET /path/1999");
    }

    @Test
    void controlFramesDecode() throws Exception {
        Properties props = new Properties();
        props.setProperty("argus.service.name", "front");
        props.setProperty("argus.collector.token", "secret");
        AgentSettings settings = new AgentSettings(new AgentConfig(props, new HashMap<>(), new Properties()));
        Frame handshake = decode(ControlFrames.handshake(settings, "1.2.3", 1234));
        assertThat(handshake.getHandshake().getProtocolVersion()).isEqualTo(1);
        assertThat(handshake.getHandshake().getService()).isEqualTo("front");
        assertThat(handshake.getHandshake().getToken()).isEqualTo("secret");
        assertThat(handshake.getHandshake().getAgentVersion()).isEqualTo("1.2.3");
        assertThat(handshake.getHandshake().getStartTimeMs()).isEqualTo(1234);
        assertThat(handshake.getHandshake().getPid()).isPositive();
        assertThat(handshake.getHandshake().getAcks()).as("asks for acknowledgements").isTrue();

        CallMetricsTable server = new CallMetricsTable(10);
        server.record("GET", "/a", 200, 2_000_000, false);
        server.record("GET", "/a", 200, 4_000_000, false);
        CallMetricsTable client = new CallMetricsTable(10);
        client.record("GET", "back", 0, 1_000, true);
        Frame metrics = decode(ControlFrames.metrics(99, 1000, server.takeSnapshots(), client.takeSnapshots(),
                sink -> {
                    sink.gauge("jvm.heap.used", 123.5);
                    sink.gauge("nan", Double.NaN);
                }));
        MetricBatch batch = metrics.getMetrics();
        assertThat(batch.getTimestampMs()).isEqualTo(99);
        assertThat(batch.getBucketBoundsNanosCount()).isEqualTo(LatencyBuckets.boundCount());
        assertThat(batch.getCallsCount()).isEqualTo(2);
        CallMetric s = batch.getCalls(0);
        assertThat(s.getKind()).isEqualTo(CallMetricKind.CALL_METRIC_KIND_SERVER);
        assertThat(s.getTarget()).isEqualTo("/a");
        assertThat(s.getCount()).isEqualTo(2);
        assertThat(s.getSumNanos()).isEqualTo(6_000_000);
        assertThat(s.getBucketCountsList().stream().mapToLong(Long::longValue).sum()).isEqualTo(2);
        CallMetric c = batch.getCalls(1);
        assertThat(c.getKind()).isEqualTo(CallMetricKind.CALL_METRIC_KIND_CLIENT);
        assertThat(c.getErrors()).isEqualTo(1);
        assertThat(c.getStatus()).isZero();
        assertThat(batch.getJvmList()).hasSize(1);
        assertThat(batch.getJvm(0).getValue()).isEqualTo(123.5);

        AgentCounters counters = new AgentCounters();
        counters.droppedSpans.set(7);
        Frame heartbeat = decode(ControlFrames.heartbeat(counters));
        assertThat(heartbeat.getHeartbeat().getDroppedSpans()).isEqualTo(7);
        assertThat(Collections.singleton(heartbeat.getBodyCase())).containsExactly(Frame.BodyCase.HEARTBEAT);
    }

    @Test
    void databaseSpansAndMetrics() throws Exception {
        List<RecordedSpan> spans = new ArrayList<>();
        Tracer tracer = new Tracer(new Sampler(100), spans::add);
        RecordedSpan server = tracer.startServer("GET", "/orders", null, null, null);
        RecordedSpan db = tracer.startDb("SELECT", "postgresql", "orders", "db.local", 5432,
                "SELECT * FROM o WHERE id = 42 /* c */ AND name = 'x'");
        tracer.end(db, System.nanoTime(), new IllegalStateException("x"), true);
        tracer.end(server, System.nanoTime(), null, false);
        Span d = decode(new SpanEncoder().encode(spans)).getSpans().getSpans(0);
        assertThat(d.getKind()).isEqualTo(SpanKind.SPAN_KIND_CLIENT);
        assertThat(d.getName()).isEqualTo("SELECT orders");
        assertThat(d.getStatus()).isEqualTo(SpanStatus.SPAN_STATUS_ERROR);
        assertThat(tags(d)).containsEntry("db.system", "postgresql").containsEntry("db.name", "orders")
                .containsEntry("db.operation", "SELECT")
                .containsEntry("db.statement", "SELECT * FROM o WHERE id = ? AND name = ?")
                .containsEntry("peer", "db.local:5432")
                .containsEntry("error", IllegalStateException.class.getName())
                .doesNotContainKeys("http.method", "http.url");

        CallMetricsTable dbMetrics = new CallMetricsTable(10);
        dbMetrics.record("INSERT", "h2:mem:test", 0, 1_000, false);
        MetricBatch batch = decode(ControlFrames.metrics(1, 1000, Collections.emptyList(), Collections.emptyList(),
                dbMetrics.takeSnapshots(), sink -> { })).getMetrics();
        assertThat(batch.getCallsCount()).isEqualTo(1);
        assertThat(batch.getCalls(0).getKind()).isEqualTo(CallMetricKind.CALL_METRIC_KIND_DB);
        assertThat(batch.getCalls(0).getMethod()).isEqualTo("INSERT");
        assertThat(batch.getCalls(0).getTarget()).isEqualTo("h2:mem:test");
    }

    @Test
    void messagingSpansAndMetrics() throws Exception {
        List<RecordedSpan> spans = new ArrayList<>();
        Tracer tracer = new Tracer(new Sampler(100), spans::add);
        RecordedSpan server = tracer.startServer("POST", "/orders", null, null, null);
        RecordedSpan producer = tracer.startProducer("kafka", "orders", System.nanoTime());
        tracer.end(producer, System.nanoTime(), null, false);
        tracer.end(server, System.nanoTime(), null, false);
        RecordedSpan consumer = tracer.startInbound(RecordedSpan.KIND_CONSUMER, "kafka", "orders", System.nanoTime(),
                Map.of("traceparent", producer.traceparent()), Map::get, null);
        tracer.end(consumer, System.nanoTime(), null, false);
        List<Span> decoded = decode(new SpanEncoder().encode(spans)).getSpans().getSpansList();
        Span p = decoded.get(0);
        assertThat(p.getKind()).isEqualTo(SpanKind.SPAN_KIND_PRODUCER);
        assertThat(p.getName()).isEqualTo("publish orders");
        assertThat(tags(p)).containsEntry("messaging.system", "kafka").containsEntry("messaging.destination.name", "orders")
                .containsEntry("messaging.operation", "publish").doesNotContainKeys("http.method", "http.url");
        Span c = decoded.get(2);
        assertThat(c.getKind()).isEqualTo(SpanKind.SPAN_KIND_CONSUMER);
        assertThat(c.getName()).isEqualTo("process orders");
        assertThat(c.getParentSpanId()).isEqualTo(p.getSpanId());
        assertThat(c.getTraceIdLow()).isEqualTo(p.getTraceIdLow());
        assertThat(tags(c)).containsEntry("messaging.operation", "process");

        CallMetricsTable produced = new CallMetricsTable(10);
        produced.record("kafka", "orders", 0, 2_000_000, false, 5);
        CallMetricsTable rpcServer = new CallMetricsTable(10);
        rpcServer.record("grpc", "shop.Orders/Get", 5, 1_000, false);
        MetricBatch batch = decode(ControlFrames.metrics(1, 1000, Collections.emptyList(), Collections.emptyList(),
                Collections.emptyList(), List.of(new ControlFrames.KindCells(WireFields.CALL_KIND_MESSAGING_PRODUCE,
                        produced.takeSnapshots()), new ControlFrames.KindCells(WireFields.CALL_KIND_RPC_SERVER,
                        rpcServer.takeSnapshots())), sink -> { })).getMetrics();
        assertThat(batch.getCallsList()).extracting(CallMetric::getKind).containsExactly(
                CallMetricKind.CALL_METRIC_KIND_MESSAGING_PRODUCE, CallMetricKind.CALL_METRIC_KIND_RPC_SERVER);
        CallMetric messages = batch.getCalls(0);
        assertThat(messages.getCount()).isEqualTo(5);
        assertThat(messages.getSumNanos()).isEqualTo(10_000_000);
        assertThat(messages.getBucketCountsList().stream().mapToLong(Long::longValue).sum()).isEqualTo(5);
        assertThat(batch.getCalls(1).getStatus()).isEqualTo(5);
    }

    @Test
    void rpcSpansAreNamedByTheFullMethodWithTheirStatusCode() throws Exception {
        List<RecordedSpan> spans = new ArrayList<>();
        Tracer tracer = new Tracer(new Sampler(100), spans::add);
        RecordedSpan server = tracer.startRpcServer("grpc", "shop.Orders/Get", System.nanoTime(), null, null);
        RecordedSpan client = tracer.startRpcClient("grpc", "shop.Stock/Reserve", "stock", 9090, System.nanoTime());
        client.setHttpStatus(14);
        tracer.end(client, System.nanoTime(), null, true);
        server.setHttpStatus(0);
        tracer.end(server, System.nanoTime(), null, false);
        List<Span> decoded = decode(new SpanEncoder().encode(spans)).getSpans().getSpansList();
        Span c = decoded.get(0);
        assertThat(c.getKind()).isEqualTo(SpanKind.SPAN_KIND_CLIENT);
        assertThat(c.getName()).isEqualTo("shop.Stock/Reserve");
        assertThat(tags(c)).containsEntry("rpc.system", "grpc").containsEntry("rpc.service", "shop.Stock")
                .containsEntry("rpc.method", "Reserve").containsEntry("rpc.grpc.status_code", "14")
                .containsEntry("peer", "stock:9090").doesNotContainKeys("http.method", "http.url", "http.status_code");
        Span s = decoded.get(1);
        assertThat(s.getKind()).isEqualTo(SpanKind.SPAN_KIND_SERVER);
        assertThat(s.getName()).isEqualTo("shop.Orders/Get");
        assertThat(tags(s)).containsEntry("rpc.grpc.status_code", "0");
    }

    /** A collector frame as the collector writes it: the generated classes, then the 4-byte length prefix. */
    private static byte[] collectorFrame(CollectorFrame frame) {
        byte[] body = frame.toByteArray();
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    /** Feeds {@code bytes} to the reader in pieces of {@code piece} bytes; returns what it decoded, in order. */
    private static List<String> read(ReplyReader reader, byte[] bytes, int piece) throws IOException {
        final List<String> events = new ArrayList<>();
        ReplyReader.Handler handler = new ReplyReader.Handler() {
            @Override
            public void handshakeReply(boolean acks) {
                events.add("reply acks=" + acks);
            }

            @Override
            public void acknowledged(long sequence) {
                events.add("ack " + sequence);
            }

            @Override
            public void refused(int reason, String message) {
                events.add("refused " + reason + " " + message);
            }
        };
        for (int i = 0; i < bytes.length; i += piece) {
            reader.buffer().put(bytes, i, Math.min(piece, bytes.length - i));
            reader.decode(handler);
        }
        return events;
    }

    /** The collector's frames, written by the generated classes, read by the agent's hand-written decoder. */
    @Test
    void collectorFramesDecodeByHand() throws Exception {
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        stream.write(collectorFrame(CollectorFrame.newBuilder()
                .setHandshakeReply(HandshakeReply.newBuilder().setAcks(true)).build()));
        stream.write(collectorFrame(CollectorFrame.newBuilder().setAck(Ack.newBuilder().setSequence(1)).build()));
        stream.write(collectorFrame(CollectorFrame.newBuilder().setAck(Ack.newBuilder().setSequence(300)).build()));
        stream.write(collectorFrame(CollectorFrame.newBuilder()
                .setAck(Ack.newBuilder().setSequence(Long.MAX_VALUE)).build()));
        // a later collector's fields are skipped: unknown fields of every wire type in both messages
        UnknownFieldSet later = UnknownFieldSet.newBuilder()
                .addField(9, UnknownFieldSet.Field.newBuilder().addVarint(5).addFixed64(6).addFixed32(7)
                        .addLengthDelimited(com.google.protobuf.ByteString.copyFromUtf8("more")).build())
                .build();
        stream.write(collectorFrame(CollectorFrame.newBuilder()
                .setAck(Ack.newBuilder().setSequence(301).setUnknownFields(later)).setUnknownFields(later).build()));
        stream.write(collectorFrame(CollectorFrame.newBuilder().setHandshakeReply(HandshakeReply.getDefaultInstance())
                .build()));
        stream.write(collectorFrame(CollectorFrame.newBuilder().setRefusal(Refusal.newBuilder()
                .setReason(RefusalReason.REFUSAL_REASON_BAD_TOKEN).setMessage("token does not match \u00e9")
                .setUnknownFields(later)).build()));
        stream.write(collectorFrame(CollectorFrame.newBuilder().setRefusal(Refusal.getDefaultInstance()).build()));
        byte[] bytes = stream.toByteArray();

        List<String> expected = List.of("reply acks=true", "ack 1", "ack 300", "ack " + Long.MAX_VALUE, "ack 301",
                "reply acks=false", "refused 1 token does not match \u00e9", "refused 0 ");
        assertThat(read(new ReplyReader(), bytes, bytes.length)).isEqualTo(expected);
        for (int piece : new int[] {1, 2, 3, 5, 7}) {
            assertThat(read(new ReplyReader(), bytes, piece)).as("in pieces of " + piece).isEqualTo(expected);
        }
    }

    @Test
    void bytesThatAreNoCollectorFramesAreRefused() {
        assertThatThrownBy(() -> read(new ReplyReader(), ByteBuffer.allocate(4).putInt(1 << 20).array(), 4))
                .isInstanceOf(IOException.class).hasMessageContaining("frame of 1048576 bytes");
        assertThatThrownBy(() -> read(new ReplyReader(), new byte[] {0, 0, 0, 2, 0x12, 0x05}, 6))
                .isInstanceOf(IOException.class).hasMessageContaining("runs past its end");
        assertThatThrownBy(() -> read(new ReplyReader(), new byte[] {0, 0, 0, 2, 0x08, (byte) 0x80}, 6))
                .isInstanceOf(IOException.class).hasMessageContaining("ends inside a number");
    }
}
