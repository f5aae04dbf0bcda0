package io.argus.fleet.druid;

import io.argus.collector.storage.AgentEvent;
import io.argus.collector.record.RecordEncoder;
import io.argus.collector.storage.Ids;
import io.argus.collector.storage.Source;
import io.argus.collector.storage.druid.DruidDatasources;
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
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The fleet's telemetry as the Kafka records an ingest collector publishes: each item is turned into the agent
 * protocol's message and written by the collector's own {@link RecordEncoder}, so that Druid ingests exactly what
 * the ingest side sends.
 */
final class FleetRecords {
    private static final RecordEncoder ENCODER = new RecordEncoder();

    private FleetRecords() {
    }

    static byte[] span(SyntheticFleet.Span s) {
        return ENCODER.span(new Source(s.service(), s.instance()), protoSpan(s));
    }

    /** The span as its agent sends it. */
    static Span protoSpan(SyntheticFleet.Span s) {
        long[] trace = Ids.parseTraceId(s.traceId());
        Span.Builder span = Span.newBuilder().setTraceIdHigh(trace[0]).setTraceIdLow(trace[1])
                .setSpanId(Ids.parseSpanId(s.spanId()))
                .setParentSpanId(s.parentSpanId().isEmpty() ? 0 : Ids.parseSpanId(s.parentSpanId()))
                .setKind(SpanKind.valueOf("SPAN_KIND_" + s.kind())).setName(s.name())
                .setStartEpochNanos(s.startNs()).setDurationNanos(s.durationNs())
                .setStatus(SpanStatus.valueOf("SPAN_STATUS_" + s.status()));
        s.tags().forEach((k, v) -> span.addTags(Tag.newBuilder().setKey(k).setValue(v)));
        return span.build();
    }

    static byte[] cell(SyntheticFleet.Cell c) {
        // trailing empty buckets are left out, as agents do
        int last = c.buckets().length - 1;
        while (last >= 0 && c.buckets()[last] == 0) {
            last--;
        }
        CallMetric.Builder cell = CallMetric.newBuilder()
                .setKind(CallMetricKind.valueOf("CALL_METRIC_KIND_" + c.kind().toUpperCase(Locale.ROOT)))
                .setMethod(c.method()).setTarget(c.target()).setStatus(c.status()).setCount(c.count())
                .setErrors(c.errors()).setSumNanos(c.sumNs()).setMinNanos(c.minNs()).setMaxNanos(c.maxNs());
        for (int i = 0; i <= last; i++) {
            cell.addBucketCounts(c.buckets()[i]);
        }
        MetricBatch.Builder batch = MetricBatch.newBuilder().setTimestampMs(c.tsMs())
                .setIntervalMs(SyntheticFleet.INTERVAL_MS);
        for (long b : DruidDatasources.BUCKET_BOUNDS_NS) {
            batch.addBucketBoundsNanos(b);
        }
        CallMetric built = cell.build();
        return ENCODER.call(source(c.service(), c.instance()), batch.addCalls(built).build(), built);
    }

    static byte[] gauge(SyntheticFleet.Gauge g) {
        Gauge gauge = Gauge.newBuilder().setName(g.name()).setValue(g.value()).build();
        MetricBatch batch = MetricBatch.newBuilder().setTimestampMs(g.tsMs()).setIntervalMs(SyntheticFleet.INTERVAL_MS)
                .addJvm(gauge).build();
        return ENCODER.jvm(source(g.service(), g.instance()), batch, gauge);
    }

    static byte[] agentEvent(SyntheticFleet.AgentEvent e) {
        Handshake handshake = Handshake.newBuilder().setProtocolVersion(1).setService(e.service())
                .setInstance(e.instance()).setAgentVersion("0.1.0").setHost("host").setPid(e.pid())
                .setStartTimeMs(e.startTimeMs()).setRuntimeVersion("17.0.16").build();
        AgentEvent.Type type = AgentEvent.Type.valueOf(e.event().toUpperCase(Locale.ROOT));
        // no heartbeat yet when the agent has just connected
        Heartbeat heartbeat = type == AgentEvent.Type.CONNECTED ? null
                : Heartbeat.newBuilder().setTimestampMs(e.tsMs()).setSentSpans(e.sentSpans()).build();
        return ENCODER.agent(new AgentEvent(e.tsMs(), type, source(e.service(), e.instance()), handshake,
                "127.0.0.1:" + (40000 + e.pid()), heartbeat));
    }

    /** Each item's record as a line of newline-delimited JSON (Druid's inline batch input). */
    static <T> List<String> lines(List<T> items, Function<T, byte[]> record) {
        return items.stream().map(record).map(FleetRecords::text).toList();
    }

    /** A record as the text of a line of newline-delimited JSON (Druid's inline batch input). */
    static String text(byte[] record) {
        return new String(record, StandardCharsets.UTF_8);
    }

    private static Source source(String service, String instance) {
        return new Source(service, instance);
    }
}
