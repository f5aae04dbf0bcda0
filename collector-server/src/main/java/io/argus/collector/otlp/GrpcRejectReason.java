package io.argus.collector.otlp;

import java.util.Locale;

/**
 * Why an OTLP/gRPC call was refused: the gRPC status code it is answered with (the HTTP status stays 200 as gRPC
 * asks, except for a content type that is not gRPC at all) and the label of
 * {@code argus.collector.otlp.grpc.rejected}. {@link #PROTOCOL_ERROR} is a connection the HTTP/2 codec closed.
 */
public enum GrpcRejectReason {
    /** A path other than the trace and metrics services' {@code Export}. */
    UNKNOWN_METHOD(12, 200),
    /** Not POST. */
    METHOD_NOT_ALLOWED(12, 405),
    /** A content type other than {@code application/grpc[+proto]}. */
    UNSUPPORTED_MEDIA_TYPE(12, 415),
    /** A {@code grpc-encoding} other than gzip or identity, or a compressed message without one. */
    UNSUPPORTED_ENCODING(12, 200),
    /** No valid bearer token or Basic credential where the collector asks for one. */
    UNAUTHENTICATED(16, 200),
    /** The message (after decompression) is larger than the configured cap. */
    TOO_LARGE(8, 200),
    /** The body is not one length-prefixed message: truncated, trailing bytes, or no message at all. */
    MALFORMED_FRAME(3, 200),
    /** The message is not a valid export request, or its gzip stream is broken. */
    BAD_PROTOBUF(3, 200),
    /** Storage stayed full for too long; the client retries. */
    UNAVAILABLE(14, 200),
    /** An unexpected failure while handling the call. */
    INTERNAL_ERROR(13, 200),
    /** Bytes that are not HTTP/2 (or break its rules): the connection is closed with GOAWAY. */
    PROTOCOL_ERROR(13, 0);

    private final int grpcCode;
    private final int httpStatus;
    private final String label = name().toLowerCase(Locale.ROOT);

    GrpcRejectReason(int grpcCode, int httpStatus) {
        this.grpcCode = grpcCode;
        this.httpStatus = httpStatus;
    }

    int grpcCode() {
        return grpcCode;
    }

    int httpStatus() {
        return httpStatus;
    }

    /** The snake_case form used in logs and metrics, e.g. {@code bad_protobuf}. */
    public String label() {
        return label;
    }
}
