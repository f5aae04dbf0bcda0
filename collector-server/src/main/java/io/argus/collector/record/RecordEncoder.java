package io.argus.collector.record;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.argus.collector.storage.AgentEvent;
import io.argus.collector.storage.CallKinds;
import io.argus.collector.storage.Ids;
import io.argus.collector.storage.Source;
import io.argus.protocol.CallMetric;
import io.argus.protocol.Gauge;
import io.argus.protocol.Handshake;
import io.argus.protocol.Heartbeat;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.Tag;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes validated spans, metric cells, JVM gauges and agent session events as the JSON records of the
 * scale-out topics (one UTF-8 JSON object per record), and their record keys. Thread-safe.
 */
public final class RecordEncoder {
    private static final String[] SPAN_KINDS = {"UNSPECIFIED", "SERVER", "CLIENT", "INTERNAL", "PRODUCER", "CONSUMER"};
    private static final String[] SPAN_STATUSES = {"UNSET", "OK", "ERROR"};
    /** By wire value of {@code CallMetricKind}; the validator lets only 1..3 through. */

    /** Characters outside the BMP as 4-byte UTF-8, not as escaped surrogate pairs. */
    private final JsonFactory json = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

    /** Key of a span record: its trace id, 32 lower-case hex digits. */
    public static byte[] spanKey(Span span) {
        return Ids.traceIdHex(span.getTraceIdHigh(), span.getTraceIdLow()).getBytes(StandardCharsets.US_ASCII);
    }

    /** Key of a call metric record: the service. */
    public static byte[] callKey(Source source) {
        return source.serviceUtf8();
    }

    /** Key of a JVM gauge or agent session record: {@code service/instance}. */
    public static byte[] instanceKey(Source source) {
        return (source.service() + "/" + source.instance()).getBytes(StandardCharsets.UTF_8);
    }

    /** The {@code argus-spans} record of one span sent by {@code source}. */
    public byte[] span(Source source, Span span) {
        ByteArrayBuilder out = new ByteArrayBuilder(256 + 64 * span.getTagsCount());
        try (JsonGenerator g = json.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeNumberField("ts", Math.floorDiv(span.getStartEpochNanos(), 1_000_000L));
            g.writeNumberField("start_ns", span.getStartEpochNanos());
            g.writeNumberField("duration_ns", span.getDurationNanos());
            g.writeStringField("trace_id", Ids.traceIdHex(span.getTraceIdHigh(), span.getTraceIdLow()));
            g.writeStringField("span_id", Ids.spanIdHex(span.getSpanId()));
            long parent = span.getParentSpanId();
            g.writeStringField("parent_span_id", parent == 0 ? "" : Ids.spanIdHex(parent)); // "" for a root
            g.writeStringField("service", source.service());
            g.writeStringField("instance", source.instance());
            g.writeStringField("kind", label(SPAN_KINDS, span.getKindValue()));
            g.writeStringField("name", span.getName());
            g.writeStringField("status", label(SPAN_STATUSES, span.getStatusValue()));
            g.writeObjectFieldStart("tags");
            for (int i = 0, n = span.getTagsCount(); i < n; i++) {
                Tag tag = span.getTags(i);
                g.writeStringField(tag.getKey(), tag.getValue());
            }
            g.writeEndObject();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory output: not expected
        }
        return out.toByteArray();
    }

    /** The {@code argus-calls} record of one call metric cell of {@code batch}. */
    public byte[] call(Source source, MetricBatch batch, CallMetric cell) {
        ByteArrayBuilder out = new ByteArrayBuilder(384 + 24 * cell.getBucketCountsCount());
        try (JsonGenerator g = json.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeNumberField("ts", batch.getTimestampMs());
            g.writeNumberField("interval_ms", batch.getIntervalMs());
            g.writeStringField("service", source.service());
            g.writeStringField("instance", source.instance());
            g.writeStringField("kind", CallKinds.label(cell.getKindValue()));
            g.writeStringField("method", cell.getMethod());
            g.writeStringField("target", cell.getTarget());
            g.writeNumberField("status", cell.getStatus());
            g.writeNumberField("count", cell.getCount());
            g.writeNumberField("errors", cell.getErrors());
            g.writeNumberField("sum_ns", cell.getSumNanos());
            g.writeNumberField("min_ns", cell.getMinNanos());
            g.writeNumberField("max_ns", cell.getMaxNanos());
            g.writeFieldName("bucket_bounds_ns");
            g.writeStartArray();
            for (int i = 0, n = batch.getBucketBoundsNanosCount(); i < n; i++) {
                g.writeNumber(batch.getBucketBoundsNanos(i));
            }
            g.writeEndArray();
            g.writeFieldName("bucket_counts");
            g.writeStartArray();
            for (int i = 0, n = cell.getBucketCountsCount(); i < n; i++) {
                g.writeNumber(cell.getBucketCounts(i));
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * The {@code argus-jvm} record of one gauge sample of {@code batch}. JSON has no NaN or infinity: such a value
     * is written as {@code null}.
     */
    public byte[] jvm(Source source, MetricBatch batch, Gauge gauge) {
        ByteArrayBuilder out = new ByteArrayBuilder(192);
        try (JsonGenerator g = json.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeNumberField("ts", batch.getTimestampMs());
            g.writeStringField("service", source.service());
            g.writeStringField("instance", source.instance());
            g.writeStringField("name", gauge.getName());
            double value = gauge.getValue();
            if (Double.isFinite(value)) {
                g.writeNumberField("value", value);
            } else {
                g.writeNullField("value");
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** The {@code argus-agents} record of one session event; the counters are 0 before the first heartbeat. */
    public byte[] agent(AgentEvent event) {
        Handshake h = event.handshake();
        Heartbeat hb = event.heartbeat() == null ? Heartbeat.getDefaultInstance() : event.heartbeat();
        ByteArrayBuilder out = new ByteArrayBuilder(384);
        try (JsonGenerator g = json.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeNumberField("ts", event.tsMs());
            g.writeStringField("event", event.type().label());
            g.writeStringField("service", event.source().service());
            g.writeStringField("instance", event.source().instance());
            g.writeStringField("agent_version", h.getAgentVersion());
            g.writeStringField("host", h.getHost());
            g.writeNumberField("pid", h.getPid());
            g.writeNumberField("start_time_ms", h.getStartTimeMs());
            g.writeStringField("runtime_version", h.getRuntimeVersion());
            g.writeNumberField("protocol_version", h.getProtocolVersion());
            g.writeStringField("remote_address", event.remoteAddress());
            g.writeNumberField("dropped_spans", hb.getDroppedSpans());
            g.writeNumberField("dropped_metrics", hb.getDroppedMetrics());
            g.writeNumberField("advice_errors", hb.getAdviceErrors());
            g.writeNumberField("sent_spans", hb.getSentSpans());
            g.writeStringField("startup_mode", h.getStartupMode());
            g.writeNumberField("observing_since_ms", h.getObservingSinceMs());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static String label(String[] labels, int value) {
        return value >= 0 && value < labels.length && labels[value] != null ? labels[value] : labels[0];
    }
}
