package io.argus.collector.otlp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/** The collector's own metrics of the OTLP receiver. */
public final class OtlpMetrics {
    private final Map<OtlpRejectReason, Counter> rejected = new EnumMap<>(OtlpRejectReason.class);
    private final Counter traceRequests;
    private final Counter metricRequests;
    private final Counter spansAccepted;
    private final Counter spansRejected;
    private final Counter pointsStored;
    private final Counter pointsIgnored;
    private final Counter pointsRejected;

    public OtlpMetrics(MeterRegistry registry) {
        for (OtlpRejectReason reason : OtlpRejectReason.values()) {
            rejected.put(reason, Counter.builder("argus.collector.otlp.rejected")
                    .description("OTLP requests refused, by reason (the HTTP status follows from it)")
                    .tag("reason", reason.label())
                    .register(registry));
        }
        traceRequests = Counter.builder("argus.collector.otlp.requests").tag("signal", "traces")
                .description("OTLP export requests accepted, by signal").register(registry);
        metricRequests = Counter.builder("argus.collector.otlp.requests").tag("signal", "metrics")
                .description("OTLP export requests accepted, by signal").register(registry);
        spansAccepted = Counter.builder("argus.collector.otlp.spans.accepted")
                .description("OTLP spans accepted for storage").register(registry);
        spansRejected = Counter.builder("argus.collector.otlp.spans.rejected")
                .description("OTLP spans refused inside accepted requests (partial success): bad ids or times")
                .register(registry);
        pointsStored = Counter.builder("argus.collector.otlp.points.mapped")
                .description("OTLP metric data points mapped to stored gauges or call metrics").register(registry);
        pointsIgnored = Counter.builder("argus.collector.otlp.points.ignored")
                .description("OTLP metric data points of metrics the collector does not map").register(registry);
        pointsRejected = Counter.builder("argus.collector.otlp.points.rejected")
                .description("OTLP metric data points refused inside accepted requests (partial success)")
                .register(registry);
    }

    void rejected(OtlpRejectReason reason) {
        rejected.get(reason).increment();
    }

    /** Requests refused so far for {@code reason}. */
    public double rejectedCount(OtlpRejectReason reason) {
        return rejected.get(reason).count();
    }

    void traces(int accepted, long refused) {
        traceRequests.increment();
        spansAccepted.increment(accepted);
        spansRejected.increment(refused);
    }

    void metrics(int mapped, int ignored, long refused) {
        metricRequests.increment();
        pointsStored.increment(mapped);
        pointsIgnored.increment(ignored);
        pointsRejected.increment(refused);
    }
}
