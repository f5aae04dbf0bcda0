package io.argus.core.export;

/**
 * Field numbers of protocol/src/main/proto/argus.proto, as the agent writes them. Kept in step
 * with the .proto by a test that decodes the agent's frames with the generated classes.
 */
final class WireFields {

    static final int FRAME_HANDSHAKE = 1;
    static final int FRAME_SPANS = 2;
    static final int FRAME_METRICS = 3;
    static final int FRAME_HEARTBEAT = 4;

    static final int HANDSHAKE_PROTOCOL_VERSION = 1;
    static final int HANDSHAKE_SERVICE = 2;
    static final int HANDSHAKE_INSTANCE = 3;
    static final int HANDSHAKE_AGENT_VERSION = 4;
    static final int HANDSHAKE_TOKEN = 5;
    static final int HANDSHAKE_HOST = 6;
    static final int HANDSHAKE_PID = 7;
    static final int HANDSHAKE_START_TIME_MS = 8;
    static final int HANDSHAKE_RUNTIME_VERSION = 9;
    static final int HANDSHAKE_ACKS = 10;
    static final int HANDSHAKE_STARTUP_MODE = 11;
    static final int HANDSHAKE_OBSERVING_SINCE_MS = 12;

    static final int COLLECTOR_FRAME_HANDSHAKE_REPLY = 1;
    static final int COLLECTOR_FRAME_ACK = 2;
    static final int COLLECTOR_FRAME_REFUSAL = 3;
    static final int HANDSHAKE_REPLY_ACKS = 1;
    static final int ACK_SEQUENCE = 1;
    static final int REFUSAL_REASON = 1;
    static final int REFUSAL_MESSAGE = 2;

    /** {@code RefusalReason} values. */
    static final int REFUSAL_BAD_TOKEN = 1;
    static final int REFUSAL_UNSUPPORTED_PROTOCOL_VERSION = 2;
    static final int REFUSAL_BAD_HANDSHAKE = 3;
    static final int REFUSAL_INVALID_FRAME = 4;
    static final int REFUSAL_UNAVAILABLE = 5;

    static final int TAG_KEY = 1;
    static final int TAG_VALUE = 2;

    static final int SPAN_TRACE_ID_HIGH = 1;
    static final int SPAN_TRACE_ID_LOW = 2;
    static final int SPAN_SPAN_ID = 3;
    static final int SPAN_PARENT_SPAN_ID = 4;
    static final int SPAN_KIND = 5;
    static final int SPAN_NAME = 6;
    static final int SPAN_START_EPOCH_NANOS = 7;
    static final int SPAN_DURATION_NANOS = 8;
    static final int SPAN_STATUS = 9;
    static final int SPAN_TAGS = 10;

    static final int SPAN_BATCH_SPANS = 1;

    static final int CALL_KIND = 1;
    static final int CALL_METHOD = 2;
    static final int CALL_TARGET = 3;
    static final int CALL_STATUS = 4;
    static final int CALL_COUNT = 5;
    static final int CALL_ERRORS = 6;
    static final int CALL_SUM_NANOS = 7;
    static final int CALL_MIN_NANOS = 8;
    static final int CALL_MAX_NANOS = 9;
    static final int CALL_BUCKET_COUNTS = 10;
    static final int CALL_KIND_SERVER = 1;
    static final int CALL_KIND_CLIENT = 2;
    static final int CALL_KIND_DB = 3;
    static final int CALL_KIND_MESSAGING_PRODUCE = 4;
    static final int CALL_KIND_MESSAGING_CONSUME = 5;
    static final int CALL_KIND_RPC_SERVER = 6;
    static final int CALL_KIND_RPC_CLIENT = 7;
    static final int CALL_KIND_JOB = 8;

    static final int GAUGE_NAME = 1;
    static final int GAUGE_VALUE = 2;

    static final int METRICS_TIMESTAMP_MS = 1;
    static final int METRICS_INTERVAL_MS = 2;
    static final int METRICS_BUCKET_BOUNDS_NANOS = 3;
    static final int METRICS_CALLS = 4;
    static final int METRICS_JVM = 5;

    static final int HEARTBEAT_TIMESTAMP_MS = 1;
    static final int HEARTBEAT_DROPPED_SPANS = 2;
    static final int HEARTBEAT_DROPPED_METRICS = 3;
    static final int HEARTBEAT_ADVICE_ERRORS = 4;
    static final int HEARTBEAT_SENT_SPANS = 5;

    static final int PROTOCOL_VERSION = 1;

    private WireFields() {
    }
}
