package io.argus.collector.record;

import io.argus.collector.storage.AgentEvent;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.storage.Source;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import io.argus.protocol.Tag;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RecordEncoderTest {
    private static final Source ORDERS = new Source("orders", "orders-1@host");

    private final RecordEncoder encoder = new RecordEncoder();

    private static Span.Builder span() {
        return Span.newBuilder()
                .setTraceIdHigh(0x4bf92f3577b34da6L).setTraceIdLow(0xa3ce929d0e0e4736L)
                .setSpanId(0x00f067aa0ba902b7L)
                .setKind(SpanKind.SPAN_KIND_SERVER).setName("GET /api/orders/{id}")
                .setStartEpochNanos(1764000000123456789L).setDurationNanos(1_250_000)
                .setStatus(SpanStatus.SPAN_STATUS_OK)
                .addTags(Tag.newBuilder().setKey("http.route").setValue("/api/orders/{id}"))
                .addTags(Tag.newBuilder().setKey("http.status_code").setValue("200"));
    }

    private static String text(byte[] record) {
        return new String(record, StandardCharsets.UTF_8);
    }

    @Test
    void rootSpanHasEmptyParentAndTagsInOrder() {
        assertThat(text(encoder.span(ORDERS, span().build()))).isEqualTo(
                "{\"ts\":1764000000123,\"start_ns\":1764000000123456789,\"duration_ns\":1250000,"
                        + "\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\",\"span_id\":\"00f067aa0ba902b7\","
                        + "\"parent_span_id\":\"\",\"service\":\"orders\",\"instance\":\"orders-1@host\","
                        + "\"kind\":\"SERVER\",\"name\":\"GET /api/orders/{id}\",\"status\":\"OK\","
                        + "\"tags\":{\"http.route\":\"/api/orders/{id}\",\"http.status_code\":\"200\"}}");
    }

    @Test
    void childSpanCarriesItsParentAsSixteenHexDigits() {
        Span child = span().setParentSpanId(0x1fL).setKind(SpanKind.SPAN_KIND_CLIENT)
                .setStatus(SpanStatus.SPAN_STATUS_ERROR).clearTags().build();
        String json = text(encoder.span(ORDERS, child));
        assertThat(json).contains("\"parent_span_id\":\"000000000000001f\"", "\"kind\":\"CLIENT\"",
                "\"status\":\"ERROR\"", "\"tags\":{}");
    }

    @Test
    void spanKeyIsTheTraceId() {
        assertThat(new String(RecordEncoder.spanKey(span().build()), StandardCharsets.US_ASCII))
                .isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void unsetKindAndStatusKeepTheirNames() {
        Span s = span().setKind(SpanKind.SPAN_KIND_UNSPECIFIED).setStatus(SpanStatus.SPAN_STATUS_UNSET).build();
        assertThat(text(encoder.span(ORDERS, s))).contains("\"kind\":\"UNSPECIFIED\"", "\"status\":\"UNSET\"");
    }

    @Test
    void stringsAreEscapedAndNonAsciiIsUtf8() throws Exception {
        Span s = span().setName("say \"hi\"\\\n\t\u0001 é 😀").clearTags()
                .addTags(Tag.newBuilder().setKey("db.statement").setValue("SELECT '\"x\"'\r\n"))
                .addTags(Tag.newBuilder().setKey("k\"ey").setValue("ü"))
                .build();
        byte[] record = encoder.span(new Source("sérvice", "in\"st"), s);
        String json = text(record);
        assertThat(json).contains("\"name\":\"say \\\"hi\\\"\\\\\\n\\t\\u0001 é 😀\"",
                "\"db.statement\":\"SELECT '\\\"x\\\"'\\r\\n\"", "\"k\\\"ey\":\"ü\"",
                "\"service\":\"sérvice\"", "\"instance\":\"in\\\"st\"");
        // and it parses back to the same strings
        JsonNode node = new ObjectMapper().readTree(record);
        assertThat(node.get("name").asText()).isEqualTo("say \"hi\"\\\n\t\u0001 é 😀");
        assertThat(node.get("tags").get("k\"ey").asText()).isEqualTo("ü");
        assertThat(node.get("instance").asText()).isEqualTo("in\"st");
    }

    @Test
    void spanBeforeTheEpochFloorsItsMilliseconds() {
        Span s = span().setStartEpochNanos(-1).build();
        assertThat(text(encoder.span(ORDERS, s))).startsWith("{\"ts\":-1,\"start_ns\":-1,");
    }

    private static MetricBatch.Builder batch() {
        return MetricBatch.newBuilder().setTimestampMs(1764000010000L).setIntervalMs(10_000)
                .addBucketBoundsNanos(1_000_000).addBucketBoundsNanos(2_000_000).addBucketBoundsNanos(5_000_000);
    }

    @Test
    void callCellWithBucketArraysOneLongerForOverflow() {
        CallMetric cell = CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER)
                .setMethod("GET").setTarget("/api/orders/{id}").setStatus(200)
                .setCount(42).setErrors(1).setSumNanos(52_000_000).setMinNanos(800_000).setMaxNanos(9_000_000)
                .addBucketCounts(3).addBucketCounts(10).addBucketCounts(28).addBucketCounts(1)
                .build();
        assertThat(text(encoder.call(ORDERS, batch().build(), cell))).isEqualTo(
                "{\"ts\":1764000010000,\"interval_ms\":10000,\"service\":\"orders\",\"instance\":\"orders-1@host\","
                        + "\"kind\":\"server\",\"method\":\"GET\",\"target\":\"/api/orders/{id}\",\"status\":200,"
                        + "\"count\":42,\"errors\":1,\"sum_ns\":52000000,\"min_ns\":800000,\"max_ns\":9000000,"
                        + "\"bucket_bounds_ns\":[1000000,2000000,5000000],\"bucket_counts\":[3,10,28,1]}");
        assertThat(new String(RecordEncoder.callKey(ORDERS), StandardCharsets.UTF_8)).isEqualTo("orders");
    }

    @Test
    void callKindsAreLowerCaseAsInTheApi() {
        CallMetric client = CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_CLIENT).build();
        CallMetric db = CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_DB)
                .setMethod("SELECT").setTarget("orders_db").build();
        MetricBatch noBuckets = MetricBatch.newBuilder().setTimestampMs(5).setIntervalMs(1).build();
        assertThat(text(encoder.call(ORDERS, noBuckets, client)))
                .contains("\"kind\":\"client\"", "\"bucket_bounds_ns\":[],\"bucket_counts\":[]");
        assertThat(text(encoder.call(ORDERS, noBuckets, db)))
                .contains("\"kind\":\"db\",\"method\":\"SELECT\",\"target\":\"orders_db\"");
    }

    @Test
    void jvmGauge() {
        Gauge heap = Gauge.newBuilder().setName("heap.used").setValue(1.5e8).build();
        assertThat(text(encoder.jvm(ORDERS, batch().build(), heap))).isEqualTo(
                "{\"ts\":1764000010000,\"service\":\"orders\",\"instance\":\"orders-1@host\","
                        + "\"name\":\"heap.used\",\"value\":1.5E8}");
        assertThat(new String(RecordEncoder.instanceKey(ORDERS), StandardCharsets.UTF_8))
                .isEqualTo("orders/orders-1@host");
    }

    @Test
    void nonFiniteGaugeIsNull() {
        Gauge nan = Gauge.newBuilder().setName("cpu.process").setValue(Double.NaN).build();
        Gauge inf = Gauge.newBuilder().setName("x").setValue(Double.POSITIVE_INFINITY).build();
        assertThat(text(encoder.jvm(ORDERS, batch().build(), nan)))
                .endsWith("\"name\":\"cpu.process\",\"value\":null}");
        assertThat(text(encoder.jvm(ORDERS, batch().build(), inf))).endsWith("\"value\":null}");
    }

    private static Handshake handshake() {
        return Handshake.newBuilder().setProtocolVersion(1).setService("orders").setInstance("orders-1@host")
                .setAgentVersion("0.1.0").setHost("host").setPid(123).setStartTimeMs(1763999990000L)
                .setRuntimeVersion("17.0.12").setToken("secret").setStartupMode("parallel")
                .setObservingSinceMs(1763999990400L).build();
    }

    @Test
    void agentConnectedBeforeAnyHeartbeatHasZeroCounters() {
        AgentEvent connected = new AgentEvent(1764000000000L, AgentEvent.Type.CONNECTED, ORDERS, handshake(),
                "127.0.0.1:51234", null);
        String json = text(encoder.agent(connected));
        assertThat(json).isEqualTo(
                "{\"ts\":1764000000000,\"event\":\"connected\",\"service\":\"orders\",\"instance\":\"orders-1@host\","
                        + "\"agent_version\":\"0.1.0\",\"host\":\"host\",\"pid\":123,\"start_time_ms\":1763999990000,"
                        + "\"runtime_version\":\"17.0.12\",\"protocol_version\":1,"
                        + "\"remote_address\":\"127.0.0.1:51234\",\"dropped_spans\":0,\"dropped_metrics\":0,"
                        + "\"advice_errors\":0,\"sent_spans\":0,\"startup_mode\":\"parallel\","
                        + "\"observing_since_ms\":1763999990400}");
        assertThat(json).doesNotContain("secret");
    }

    @Test
    void agentHeartbeatAndDisconnectCarryTheLatestCounters() {
        Heartbeat hb = Heartbeat.newBuilder().setTimestampMs(1764000005000L).setDroppedSpans(7)
                .setDroppedMetrics(2).setAdviceErrors(1).setSentSpans(1000).build();
        for (AgentEvent.Type type : new AgentEvent.Type[] {AgentEvent.Type.HEARTBEAT, AgentEvent.Type.DISCONNECTED}) {
            String json = text(encoder.agent(new AgentEvent(1764000005001L, type, ORDERS, handshake(),
                    "127.0.0.1:51234", hb)));
            assertThat(json).startsWith("{\"ts\":1764000005001,\"event\":\"" + type.label() + "\",")
                    .endsWith("\"dropped_spans\":7,\"dropped_metrics\":2,\"advice_errors\":1,\"sent_spans\":1000,"
                            + "\"startup_mode\":\"parallel\",\"observing_since_ms\":1763999990400}");
        }
    }

    @Test
    void topicNamesTakeThePrefix() {
        assertThat(RecordTopic.SPANS.topic(RecordTopic.DEFAULT_PREFIX)).isEqualTo("argus-spans");
        assertThat(RecordTopic.CALLS.topic("t1.")).isEqualTo("t1.calls");
        assertThat(RecordTopic.JVM.topic("")).isEqualTo("jvm");
        assertThat(RecordTopic.AGENTS.topic("argus-")).isEqualTo("argus-agents");
    }
}
