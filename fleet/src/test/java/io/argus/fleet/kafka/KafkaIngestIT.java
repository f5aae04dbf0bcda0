package io.argus.fleet.kafka;

import io.argus.cluster.kafka.KafkaBroker;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.kafka.KafkaSettings;
import io.argus.collector.kafka.KafkaSink;
import io.argus.collector.record.RecordTopic;
import io.argus.collector.storage.Source;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** An ingest-only collector in front of a real broker: what agents and OTLP clients send lands in the topics. */
class KafkaIngestIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long T0 = 1_764_000_000_123_456_789L;
    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = BrokerSupport.startBroker("ingest");
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.stop();
        }
    }

    @Test
    void agentFramesLandInTheirTopicsWithTheirKeys() throws Exception {
        try (Collector c = BrokerSupport.startIngest(broker, "rt-")) {
            Span root = Spans.span(0xaaL, 0x1L, 0x10L, 0, SpanKind.SPAN_KIND_SERVER, "GET /orders/{id}", T0,
                    2_000_000, SpanStatus.SPAN_STATUS_OK, "http.route", "/orders/{id}", "http.status_code", "200");
            Span child = Spans.span(0xaaL, 0x1L, 0x11L, 0x10L, SpanKind.SPAN_KIND_CLIENT, "SELECT orders", T0 + 1000,
                    500_000, SpanStatus.SPAN_STATUS_ERROR, "db.system", "h2");
            Span other = Spans.span(0xbbL, 0x2L, 0x20L, 0, SpanKind.SPAN_KIND_SERVER, "GET /health", T0 + 5000,
                    100_000, SpanStatus.SPAN_STATUS_UNSET);
            MetricBatch metrics = MetricBatch.newBuilder().setTimestampMs(1_764_000_010_000L).setIntervalMs(10_000)
                    .addBucketBoundsNanos(1_000_000).addBucketBoundsNanos(10_000_000)
                    .addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER)
                            .setMethod("GET").setTarget("/orders/{id}").setStatus(200).setCount(3).setErrors(0)
                            .setSumNanos(6_000_000).setMinNanos(1_500_000).setMaxNanos(2_500_000)
                            .addBucketCounts(0).addBucketCounts(3).addBucketCounts(0))
                    .addJvm(Gauge.newBuilder().setName("heap.used").setValue(1.5e8))
                    .addJvm(Gauge.newBuilder().setName("threads.live").setValue(21))
                    .build();
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.hello("orders", "orders-1")
                        .spans(SpanBatch.newBuilder().addSpans(root).addSpans(child).addSpans(other).build())
                        .metrics(metrics)
                        .heartbeat(Heartbeat.newBuilder().setTimestampMs(1_764_000_011_000L).setSentSpans(3)
                                .setDroppedSpans(1).build());
                try (TopicReader agents = new TopicReader(broker.bootstrapServers(), "rt-agents")) {
                    agents.until(r -> r.size() >= 2, WAIT);
                }
            }

            try (TopicReader spans = new TopicReader(broker.bootstrapServers(), "rt-spans")) {
                List<TopicReader.Rec> got = spans.until(r -> r.size() >= 3, WAIT);
                assertThat(got).hasSize(3);
                TopicReader.Rec r0 = got.stream().filter(r -> r.value().get("span_id").asText()
                        .equals("0000000000000010")).findFirst().orElseThrow();
                assertThat(r0.key()).isEqualTo("00000000000000aa0000000000000001");
                assertThat(r0.value().toString()).isEqualTo("{\"ts\":1764000000123,\"start_ns\":1764000000123456789,"
                        + "\"duration_ns\":2000000,\"trace_id\":\"00000000000000aa0000000000000001\","
                        + "\"span_id\":\"0000000000000010\",\"parent_span_id\":\"\",\"service\":\"orders\","
                        + "\"instance\":\"orders-1\",\"kind\":\"SERVER\",\"name\":\"GET /orders/{id}\","
                        + "\"status\":\"OK\",\"tags\":{\"http.route\":\"/orders/{id}\",\"http.status_code\":\"200\"}}");
                TopicReader.Rec r1 = got.stream().filter(r -> r.value().get("span_id").asText()
                        .equals("0000000000000011")).findFirst().orElseThrow();
                assertThat(r1.value().get("parent_span_id").asText()).isEqualTo("0000000000000010");
                assertThat(r1.value().get("status").asText()).isEqualTo("ERROR");
                // a trace stays in one partition
                assertThat(r1.partition()).isEqualTo(r0.partition());
                assertThat(got.stream().map(TopicReader.Rec::key).collect(Collectors.toSet()))
                        .containsExactlyInAnyOrder("00000000000000aa0000000000000001",
                                "00000000000000bb0000000000000002");
            }
            try (TopicReader calls = new TopicReader(broker.bootstrapServers(), "rt-calls")) {
                List<TopicReader.Rec> got = calls.until(r -> r.size() >= 1, WAIT);
                assertThat(got).hasSize(1);
                assertThat(got.get(0).key()).isEqualTo("orders");
                assertThat(got.get(0).value().toString()).isEqualTo("{\"ts\":1764000010000,\"interval_ms\":10000,"
                        + "\"service\":\"orders\",\"instance\":\"orders-1\",\"kind\":\"server\",\"method\":\"GET\","
                        + "\"target\":\"/orders/{id}\",\"status\":200,\"count\":3,\"errors\":0,\"sum_ns\":6000000,"
                        + "\"min_ns\":1500000,\"max_ns\":2500000,\"bucket_bounds_ns\":[1000000,10000000],"
                        + "\"bucket_counts\":[0,3,0]}");
            }
            try (TopicReader jvm = new TopicReader(broker.bootstrapServers(), "rt-jvm")) {
                List<TopicReader.Rec> got = jvm.until(r -> r.size() >= 2, WAIT);
                assertThat(got).extracting(TopicReader.Rec::key).containsOnly("orders/orders-1");
                assertThat(got).extracting(r -> r.value().get("name").asText() + "=" + r.value().get("value"))
                        .containsExactlyInAnyOrder("heap.used=1.5E8", "threads.live=21.0");
            }
            try (TopicReader agents = new TopicReader(broker.bootstrapServers(), "rt-agents")) {
                List<TopicReader.Rec> got = agents.until(r -> r.size() >= 3, WAIT);
                assertThat(got).extracting(r -> r.value().get("event").asText())
                        .containsExactly("connected", "heartbeat", "disconnected");
                assertThat(got).extracting(TopicReader.Rec::key).containsOnly("orders/orders-1");
                TopicReader.Rec last = got.get(2);
                assertThat(last.value().get("sent_spans").asLong()).isEqualTo(3);
                assertThat(last.value().get("dropped_spans").asLong()).isEqualTo(1);
                assertThat(last.value().get("agent_version").asText()).isEqualTo("0.1.0-test");
                assertThat(last.value().get("remote_address").asText()).startsWith("127.0.0.1:");
            }
        }
    }

    @Test
    void malformedFramesNeverReachKafka() throws Exception {
        try (Collector c = BrokerSupport.startIngest(broker, "bad-")) {
            // a batch with one valid span and one with a zero trace id: the whole batch is refused
            Span valid = Spans.simple(0x77L, 0x1L);
            Span invalid = Spans.span(0, 0, 0x2L, 0, SpanKind.SPAN_KIND_SERVER, "x", T0, 1, SpanStatus.SPAN_STATUS_OK);
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.hello("bad", "bad-1").spans(SpanBatch.newBuilder().addSpans(valid).addSpans(invalid).build());
                assertThat(agent.closedByServer(30_000)).isTrue();
            }
            // spans before a handshake, and bytes that are no protobuf frame
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.spans(SpanBatch.newBuilder().addSpans(Spans.simple(0x78L, 0x1L)).build());
                assertThat(agent.closedByServer(30_000)).isTrue();
            }
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.raw(TestAgent.lengthPrefix(5)).raw(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff,
                        (byte) 0xff, (byte) 0xff});
                assertThat(agent.closedByServer(30_000)).isTrue();
            }
            BrokerSupport.await("three rejections counted", WAIT, () -> c.ingestMetrics().rejectedTotal() >= 3);
            // then a good batch: when it has arrived, nothing else has
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.hello("good", "good-1").spans(SpanBatch.newBuilder().addSpans(Spans.simple(0x79L, 0x1L)).build());
                try (TopicReader spans = new TopicReader(broker.bootstrapServers(), "bad-spans")) {
                    List<TopicReader.Rec> got = spans.until(r -> !r.isEmpty(), WAIT);
                    got = spans.drain(Duration.ofSeconds(2));
                    assertThat(got).extracting(TopicReader.Rec::key)
                            .containsExactly("00000000000012340000000000000079");
                }
            }
        }
    }

    /**
     * Acknowledgements of an ingest node: the sink hands a batch on once Kafka acknowledged each of its records; over
     * the wire, an acknowledged frame is in its topic. A record too large for Kafka is counted as a failure and its
     * frame acknowledged anyway (sending it again would fail the same way), so the frames after it are too.
     */
    @Test
    void framesAreAcknowledgedOnceKafkaHoldsEveryRecord() throws Exception {
        try (Collector c = BrokerSupport.startIngest(broker, "ack-")) {
            KafkaSink sink = (KafkaSink) c.sink();
            SpanBatch.Builder direct = SpanBatch.newBuilder();
            for (int i = 1; i <= 50; i++) {
                direct.addSpans(Spans.simple(0xd1L, i));
            }
            CompletableFuture<Long> publishedAtHandOff = new CompletableFuture<>();
            assertThat(sink.offerSpans(new Source("direct", "direct-1"), direct.build(),
                    () -> publishedAtHandOff.complete(sink.published(RecordTopic.SPANS)))).isTrue();
            assertThat(publishedAtHandOff.get(60, TimeUnit.SECONDS)).as("acknowledged by Kafka first")
                    .isGreaterThanOrEqualTo(50);

            SpanBatch.Builder acked = SpanBatch.newBuilder();
            for (int i = 1; i <= 100; i++) {
                acked.addSpans(Spans.span(0xacL, 0x1L, i, 0, SpanKind.SPAN_KIND_SERVER, "GET /acked", T0 + i, 1,
                        SpanStatus.SPAN_STATUS_OK));
            }
            Span big = Spans.span(0xacL, 0x2L, 0x1L, 0, SpanKind.SPAN_KIND_SERVER, "big", T0, 1,
                    SpanStatus.SPAN_STATUS_OK, "payload", "x".repeat(1_500_000));
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.helloWithAcks("acked", "acked-1");
                assertThat(agent.read(10_000).getHandshakeReply().getAcks()).isTrue();
                agent.spans(acked.build())
                        .spans(SpanBatch.newBuilder().addSpans(big).build())
                        .heartbeat(Heartbeat.newBuilder().setTimestampMs(1_764_000_011_000L).build())
                        .spans(SpanBatch.newBuilder().addSpans(Spans.span(0xacL, 0x3L, 0x1L, 0,
                                SpanKind.SPAN_KIND_SERVER, "GET /after", T0, 1, SpanStatus.SPAN_STATUS_OK)).build());
                agent.awaitAck(4, 60_000);
                try (TopicReader spans = new TopicReader(broker.bootstrapServers(), "ack-spans")) {
                    // acknowledged: every record is in the topic already
                    List<TopicReader.Rec> got = spans.until(r -> r.size() >= 151, Duration.ofSeconds(10));
                    assertThat(got.stream().filter(r -> r.value().get("service").asText().equals("acked")))
                            .hasSize(101);
                }
            }
            assertThat(BrokerSupport.get(c.httpUrl() + "metrics").body())
                    .contains("argus_kafka_publish_failures_total{topic=\"ack-spans\"} 1.0");
        }
    }

    @Test
    void aSpanTooLargeForKafkaIsCountedAndTheNodeKeepsAccepting() throws Exception {
        try (Collector c = BrokerSupport.startIngest(broker, "big-")) {
            String huge = "x".repeat(1_500_000); // over the producer's max.request.size (1 MiB by default)
            Span big = Spans.span(0x9L, 0x1L, 0x1L, 0, SpanKind.SPAN_KIND_SERVER, "big", T0, 1,
                    SpanStatus.SPAN_STATUS_OK, "payload", huge);
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.hello("big", "big-1").spans(SpanBatch.newBuilder().addSpans(big).build())
                        .spans(SpanBatch.newBuilder().addSpans(Spans.simple(0xaL, 0x2L)).build());
                try (TopicReader spans = new TopicReader(broker.bootstrapServers(), "big-spans")) {
                    List<TopicReader.Rec> got = spans.until(r -> !r.isEmpty(), WAIT);
                    assertThat(got).extracting(TopicReader.Rec::key)
                            .containsExactly("0000000000001234000000000000000a");
                }
                assertThat(agent.closedByServer(500)).isFalse();
            }
            assertThat(c.sink().accepting()).isTrue();
            assertThat(BrokerSupport.get(c.httpUrl() + "metrics").body())
                    .contains("argus_kafka_publish_failures_total{topic=\"big-spans\"} 1.0");
        }
    }

    @Test
    void otlpExportsArePublishedToo() throws Exception {
        try (Collector c = BrokerSupport.startIngest(broker, "otlp-")) {
            byte[] traceId = new byte[16];
            traceId[15] = 0x42;
            ExportTraceServiceRequest request = ExportTraceServiceRequest.newBuilder()
                    .addResourceSpans(ResourceSpans.newBuilder()
                            .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder()
                                    .setKey("service.name").setValue(AnyValue.newBuilder().setStringValue("billing"))))
                            .addScopeSpans(ScopeSpans.newBuilder().addSpans(
                                    io.opentelemetry.proto.trace.v1.Span.newBuilder()
                                            .setTraceId(ByteString.copyFrom(traceId))
                                            .setSpanId(ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0, 0, 9}))
                                            .setName("charge")
                                            .setKind(io.opentelemetry.proto.trace.v1.Span.SpanKind.SPAN_KIND_SERVER)
                                            .setStartTimeUnixNano(T0).setEndTimeUnixNano(T0 + 3_000_000))))
                    .build();
            HttpResponse<String> res = BrokerSupport.post("http://127.0.0.1:" + c.otlpHttpPort() + "/v1/traces",
                    "application/x-protobuf", request.toByteArray());
            assertThat(res.statusCode()).isEqualTo(200);
            try (TopicReader spans = new TopicReader(broker.bootstrapServers(), "otlp-spans")) {
                TopicReader.Rec r = spans.until(l -> !l.isEmpty(), WAIT).get(0);
                assertThat(r.key()).isEqualTo("00000000000000000000000000000042");
                assertThat(r.value().get("service").asText()).isEqualTo("billing");
                assertThat(r.value().get("name").asText()).isEqualTo("charge");
                assertThat(r.value().get("duration_ns").asLong()).isEqualTo(3_000_000);
            }
        }
    }

    @Test
    void dataEndpointsAnswer503AndMetricsAreServed() throws Exception {
        try (Collector c = BrokerSupport.startIngest(broker, "api-")) {
            for (String path : List.of("api/traces", "api/traces/00000000000000000000000000000001",
                    "api/metrics/http", "api/metrics/jvm?service=x")) {
                HttpResponse<String> res = BrokerSupport.get(c.httpUrl() + path);
                assertThat(res.statusCode()).as(path).isEqualTo(503);
                assertThat(res.body()).as(path).contains("ingest-only node (--storage kafka)");
            }
            assertThat(BrokerSupport.get(c.httpUrl() + "api/agents").statusCode()).isEqualTo(200);
            try (TestAgent agent = new TestAgent(c.ingestPort())) {
                agent.hello("m", "m-1").spans(SpanBatch.newBuilder().addSpans(Spans.simple(0x5L, 0x1L)).build());
                BrokerSupport.await("the span acknowledged", WAIT, () -> {
                    try {
                        return BrokerSupport.get(c.httpUrl() + "metrics").body()
                                .contains("argus_kafka_records_published_total{topic=\"api-spans\"} 1.0");
                    } catch (Exception e) {
                        return false;
                    }
                });
            }
            String metrics = BrokerSupport.get(c.httpUrl() + "metrics").body();
            assertThat(metrics).contains("argus_kafka_available 1.0", "argus_kafka_publish_failures_total");
        }
    }

    @Test
    void missingTopicsAreOneErrorAtStartNamingTheSetting() throws Exception {
        CollectorConfig config = CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(0)
                .kafka(KafkaSettings.of(broker.bootstrapServers()).withTopicPrefix("absent-")).build();
        assertThatThrownBy(() -> Collector.start(config))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has no topic absent-spans, absent-calls, absent-jvm, absent-agents"
                        + " (--kafka-topic-prefix 'absent-'): create it, or pass --kafka-create-topics PARTITIONS");
        // and nothing created them behind our back
        try (var admin = broker.admin()) {
            assertThat(admin.listTopics().names().get()).doesNotContain("absent-spans", "absent-agents");
        }
    }
}
