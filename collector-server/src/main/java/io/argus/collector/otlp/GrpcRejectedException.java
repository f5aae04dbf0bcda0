package io.argus.collector.otlp;

/** A refused OTLP/gRPC call, travelling down its stream's pipeline to {@link GrpcErrorHandler}. */
final class GrpcRejectedException extends RuntimeException {
    private final GrpcRejectReason reason;

    GrpcRejectedException(GrpcRejectReason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    GrpcRejectReason reason() {
        return reason;
    }
}
