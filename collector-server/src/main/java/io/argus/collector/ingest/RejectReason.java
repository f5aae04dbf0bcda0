package io.argus.collector.ingest;

import java.util.Locale;

/** Why an agent connection was closed; the label of the {@code argus.collector.frames.rejected} counter. */
public enum RejectReason {
    /** The length prefix exceeds the configured maximum frame size. */
    FRAME_TOO_LARGE,
    /** The length prefix is no length at all (its high bit is set), or the framing is otherwise corrupt. */
    BAD_LENGTH,
    /** The connection closed in the middle of a frame. */
    TRUNCATED_FRAME,
    /** The frame body is not a valid serialized {@code Frame}. */
    BAD_PROTOBUF,
    /** The frame carries no body. */
    EMPTY_FRAME,
    /** Something other than a handshake came first. */
    MISSING_HANDSHAKE,
    /** A second handshake on the same connection. */
    DUPLICATE_HANDSHAKE,
    /** The handshake names a protocol version this collector does not speak. */
    UNSUPPORTED_PROTOCOL_VERSION,
    /** The handshake lacks a service name or carries an unusable name (too long, control characters). */
    BAD_HANDSHAKE,
    /** The collector requires a token and the handshake's does not match. */
    BAD_TOKEN,
    /** A span or metric batch holds more entries than allowed. */
    BATCH_TOO_LARGE,
    /** A span with a zero id, a negative or absurd duration, or no start time. */
    INVALID_SPAN,
    /** A metric batch with inconsistent histogram buckets or counters. */
    INVALID_METRICS,
    /** No handshake (and TLS) within the handshake deadline. */
    HANDSHAKE_TIMEOUT,
    /** A frame did not arrive complete within the frame deadline. */
    FRAME_TIMEOUT,
    /** An unexpected failure while handling the connection's data. */
    INTERNAL_ERROR;

    private final String label = name().toLowerCase(Locale.ROOT);

    /** The snake_case form used in logs and metrics, e.g. {@code bad_protobuf}. */
    public String label() {
        return label;
    }
}
