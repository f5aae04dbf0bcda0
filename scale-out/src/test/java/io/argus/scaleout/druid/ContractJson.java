package io.argus.scaleout.druid;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.argus.collector.storage.druid.DruidDatasources;

/**
 * The fleet's telemetry as the Kafka records of the scale-out contract (docs/scale-out.md): one JSON object per
 * record. The ingest side's encoder writes the same records from real agent frames.
 */
final class ContractJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ContractJson() {
    }

    static String span(SyntheticFleet.Span s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("ts", Math.floorDiv(s.startNs(), 1_000_000L)).put("start_ns", s.startNs())
                .put("duration_ns", s.durationNs()).put("trace_id", s.traceId()).put("span_id", s.spanId())
                .put("parent_span_id", s.parentSpanId()).put("service", s.service()).put("instance", s.instance())
                .put("kind", s.kind()).put("name", s.name()).put("status", s.status());
        ObjectNode tags = o.putObject("tags");
        s.tags().forEach(tags::put);
        return write(o);
    }

    static String cell(SyntheticFleet.Cell c) {
        ObjectNode o = JSON.createObjectNode();
        o.put("ts", c.tsMs()).put("interval_ms", SyntheticFleet.INTERVAL_MS).put("service", c.service())
                .put("instance", c.instance()).put("kind", c.kind()).put("method", c.method())
                .put("target", c.target()).put("status", c.status()).put("count", c.count())
                .put("errors", c.errors()).put("sum_ns", c.sumNs()).put("min_ns", c.minNs()).put("max_ns", c.maxNs());
        var bounds = o.putArray("bucket_bounds_ns");
        for (long b : DruidDatasources.BUCKET_BOUNDS_NS) {
            bounds.add(b);
        }
        // trailing empty buckets are left out, as agents do
        int last = c.buckets().length - 1;
        while (last >= 0 && c.buckets()[last] == 0) {
            last--;
        }
        var counts = o.putArray("bucket_counts");
        for (int i = 0; i <= last; i++) {
            counts.add(c.buckets()[i]);
        }
        return write(o);
    }

    static String gauge(SyntheticFleet.Gauge g) {
        return write(JSON.createObjectNode().put("ts", g.tsMs()).put("service", g.service())
                .put("instance", g.instance()).put("name", g.name()).put("value", g.value()));
    }

    static String agentEvent(SyntheticFleet.AgentEvent e) {
        return write(JSON.createObjectNode().put("ts", e.tsMs()).put("event", e.event()).put("service", e.service())
                .put("instance", e.instance()).put("agent_version", "0.1.0").put("host", "host").put("pid", e.pid())
                .put("start_time_ms", e.startTimeMs()).put("runtime_version", "17.0.16").put("protocol_version", 1)
                .put("remote_address", "127.0.0.1:" + (40000 + e.pid())).put("dropped_spans", 0)
                .put("dropped_metrics", 0).put("advice_errors", 0).put("sent_spans", e.sentSpans()));
    }

    private static String write(ObjectNode o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
