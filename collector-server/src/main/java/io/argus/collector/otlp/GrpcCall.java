package io.argus.collector.otlp;

/**
 * The head of an accepted OTLP/gRPC call, handed from the request filter to the message decoder.
 *
 * @param signal traces or metrics, from the path
 * @param gzip   whether {@code grpc-encoding: gzip} was sent (compressed messages are then allowed)
 */
record GrpcCall(Signal signal, boolean gzip) {
    static final String TRACE_EXPORT = "/opentelemetry.proto.collector.trace.v1.TraceService/Export";
    static final String METRICS_EXPORT = "/opentelemetry.proto.collector.metrics.v1.MetricsService/Export";
}
