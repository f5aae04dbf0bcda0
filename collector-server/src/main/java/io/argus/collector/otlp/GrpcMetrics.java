package io.argus.collector.otlp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/** {@code argus.collector.otlp.grpc.rejected{reason}}: OTLP/gRPC calls and connections refused. */
public final class GrpcMetrics {
    private final Map<GrpcRejectReason, Counter> rejected = new EnumMap<>(GrpcRejectReason.class);

    public GrpcMetrics(MeterRegistry registry) {
        for (GrpcRejectReason reason : GrpcRejectReason.values()) {
            rejected.put(reason, Counter.builder("argus.collector.otlp.grpc.rejected")
                    .description("OTLP/gRPC calls refused by reason (protocol_error: connections closed)")
                    .tag("reason", reason.label()).register(registry));
        }
    }

    void rejected(GrpcRejectReason reason) {
        rejected.get(reason).increment();
    }

    /** Calls (or connections) refused so far for {@code reason}. */
    public double rejectedCount(GrpcRejectReason reason) {
        return rejected.get(reason).count();
    }
}
