package io.argus.collector.otlp;

/** Thrown by an OTLP pipeline stage to have the request answered with {@link #reason()}'s status. */
final class OtlpRejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient OtlpRejectReason reason;

    OtlpRejectedException(OtlpRejectReason reason, String detail) {
        super(detail);
        this.reason = reason;
    }

    OtlpRejectReason reason() {
        return reason;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // expected condition, the reason says it all
    }
}
