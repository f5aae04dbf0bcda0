package io.argus.collector.ingest;

import io.netty.handler.codec.DecoderException;

/** Thrown by an ingest pipeline stage to have the connection closed for {@link #reason()}. */
public final class IngestRejectedException extends DecoderException {
    private static final long serialVersionUID = 1L;
    private final RejectReason reason;

    public IngestRejectedException(RejectReason reason, String detail) {
        super(detail);
        this.reason = reason;
    }

    public RejectReason reason() {
        return reason;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // expected condition, the reason says it all
    }
}
