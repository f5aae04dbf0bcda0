package io.argus.collector.otlp;

import com.google.protobuf.MessageLite;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsPartialSuccess;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;

/**
 * One decoded export request, mapped the same way whichever transport brought it (OTLP/HTTP or OTLP/gRPC): the
 * batches to offer the store, and the export response (partial success when spans or points were refused).
 */
final class OtlpExport {
    final Mapped mapped;
    final MessageLite answer;

    private OtlpExport(Mapped mapped, MessageLite answer) {
        this.mapped = mapped;
        this.answer = answer;
    }

    /** Maps {@code request} and counts it; {@code null} when it is neither a trace nor a metrics export. */
    static OtlpExport of(Object request, String clientHost, long nowMs, ClockWindow window, MetricMapper metricMapper,
                         OtlpMetrics metrics) {
        if (request instanceof ExportTraceServiceRequest traces) {
            Mapped mapped = TraceMapper.map(traces, clientHost, nowMs, window);
            metrics.traces(mapped.accepted, mapped.rejected);
            ExportTraceServiceResponse.Builder res = ExportTraceServiceResponse.newBuilder();
            if (mapped.rejected > 0) {
                res.setPartialSuccess(ExportTracePartialSuccess.newBuilder().setRejectedSpans(mapped.rejected)
                        .setErrorMessage(mapped.errorMessage()));
            }
            return new OtlpExport(mapped, res.build());
        }
        if (request instanceof ExportMetricsServiceRequest metricRequest) {
            Mapped mapped = metricMapper.map(metricRequest, clientHost, nowMs);
            metrics.metrics(mapped.accepted, mapped.ignored, mapped.rejected);
            ExportMetricsServiceResponse.Builder res = ExportMetricsServiceResponse.newBuilder();
            if (mapped.rejected > 0) {
                res.setPartialSuccess(ExportMetricsPartialSuccess.newBuilder()
                        .setRejectedDataPoints(mapped.rejected).setErrorMessage(mapped.errorMessage()));
            }
            return new OtlpExport(mapped, res.build());
        }
        return null;
    }

    /** Records the request's senders as OTLP agents (seen now, with the spans each sent). */
    void registerSenders(AgentRegistry registry, String remote, long nowMs) {
        mapped.senders.forEach((sender, spans) ->
                registry.otlpExport(sender.source(), sender.details(), remote, spans, nowMs));
    }
}
