package io.argus.collector.otlp;

import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Locale;

/**
 * Why an OTLP request was refused: the HTTP status the OTLP/HTTP specification asks for, the gRPC code put in
 * the {@code google.rpc.Status} body, and the label of {@code argus.collector.otlp.rejected}.
 */
public enum OtlpRejectReason {
    /** Not {@code /v1/traces} or {@code /v1/metrics}. */
    NOT_FOUND(HttpResponseStatus.NOT_FOUND, 5),
    /** Anything but POST. */
    METHOD_NOT_ALLOWED(HttpResponseStatus.METHOD_NOT_ALLOWED, 12),
    /** A content type other than {@code application/x-protobuf}, or an unknown content encoding. */
    UNSUPPORTED_MEDIA_TYPE(HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, 3),
    /** The body (after decompression) is larger than the configured cap. */
    TOO_LARGE(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, 8),
    /** The body is not a valid serialized export request. */
    BAD_PROTOBUF(HttpResponseStatus.BAD_REQUEST, 3),
    /** The HTTP request itself could not be parsed. */
    MALFORMED_REQUEST(HttpResponseStatus.BAD_REQUEST, 3),
    /** The request line is longer than the limit. */
    URI_TOO_LONG(HttpResponseStatus.REQUEST_URI_TOO_LONG, 3),
    /** The request headers are larger than the limit. */
    HEADERS_TOO_LARGE(HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, 3),
    /** Storage stayed full for too long, or fails; the client should retry later. */
    UNAVAILABLE(HttpResponseStatus.SERVICE_UNAVAILABLE, 14),
    /** An unexpected failure while handling the request. */
    INTERNAL_ERROR(HttpResponseStatus.INTERNAL_SERVER_ERROR, 13);

    private final HttpResponseStatus status;
    private final int grpcCode;
    private final String label = name().toLowerCase(Locale.ROOT);

    OtlpRejectReason(HttpResponseStatus status, int grpcCode) {
        this.status = status;
        this.grpcCode = grpcCode;
    }

    public HttpResponseStatus status() {
        return status;
    }

    int grpcCode() {
        return grpcCode;
    }

    /** The snake_case form used in logs and metrics, e.g. {@code bad_protobuf}. */
    public String label() {
        return label;
    }
}
