package io.argus.core.export;

import io.argus.bridge.Tags;
import io.argus.core.db.SqlSanitizer;
import io.argus.core.trace.RecordedSpan;

import java.util.List;

import static io.argus.core.export.WireFields.*;

/** Writes a span batch frame straight from {@link RecordedSpan}s, without message objects. */
final class SpanEncoder {

    private final ProtoWriter out = new ProtoWriter(64 * 1024);

    byte[] encode(List<RecordedSpan> spans) {
        out.beginFrame();
        int batch = out.beginMessage(FRAME_SPANS);
        for (int i = 0; i < spans.size(); i++) {
            writeSpan(spans.get(i));
        }
        out.endMessage(batch);
        return out.endFrame();
    }

    private void writeSpan(RecordedSpan s) {
        int span = out.beginMessage(SPAN_BATCH_SPANS);
        out.writeFixed64(SPAN_TRACE_ID_HIGH, s.traceIdHigh());
        out.writeFixed64(SPAN_TRACE_ID_LOW, s.traceIdLow());
        out.writeFixed64(SPAN_SPAN_ID, s.spanId());
        out.writeFixed64(SPAN_PARENT_SPAN_ID, s.parentSpanId());
        out.writeInt32(SPAN_KIND, s.kind());
        writeName(s);
        out.writeUInt64(SPAN_START_EPOCH_NANOS, s.startEpochNanos());
        out.writeUInt64(SPAN_DURATION_NANOS, s.durationNanos());
        out.writeInt32(SPAN_STATUS, s.status());
        if (s.dbSystem() != null) {
            writeDbTags(s);
        } else if (s.isMessaging()) {
            writeMessagingTags(s);
        } else if (s.isRpc()) {
            writeRpcTags(s);
        } else {
            writeHttpTags(s);
        }
        if (s.error() != null) {
            tag(Tags.ERROR, s.error());
        }
        for (int i = 0; i < s.extraTagCount(); i++) {
            tag(s.extraTagKey(i), s.extraTagValue(i));
        }
        out.endMessage(span);
    }

    /**
     * The span's display name, written from its parts (no string is built per span). Server: "GET /route"
     * (or "GET /path" without a route); client: "GET host"; database: "SELECT dbname"; messaging: "publish topic"
     * or "process topic"; RPC: the full method ("package.Service/Method"); internal: its name.
     * The same bytes as {@link RecordedSpan#displayName()}.
     */
    private void writeName(RecordedSpan s) {
        if (s.name() != null) {
            out.writeString(SPAN_NAME, s.name());
        } else if (s.dbSystem() != null) {
            out.writeJoined(SPAN_NAME, String.valueOf(s.method()), ' ', s.dbName() != null ? s.dbName() : s.dbSystem());
        } else if (s.isMessaging()) {
            out.writeJoined(SPAN_NAME, s.messagingOperation(), ' ', String.valueOf(s.target()));
        } else if (s.isRpc()) {
            out.writeString(SPAN_NAME, String.valueOf(s.target()));
        } else {
            String method = s.method() == null ? "HTTP" : s.method();
            String named = s.kind() == RecordedSpan.KIND_SERVER ? (s.route() != null ? s.route() : s.target()) : s.host();
            if (named == null) {
                out.writeString(SPAN_NAME, method);
            } else {
                out.writeJoined(SPAN_NAME, method, ' ', named);
            }
        }
    }

    private void writeDbTags(RecordedSpan s) {
        tag(Tags.DB_SYSTEM, s.dbSystem());
        if (s.dbName() != null) {
            tag(Tags.DB_NAME, s.dbName());
        }
        if (s.method() != null) {
            tag(Tags.DB_OPERATION, s.method());
        }
        if (s.target() != null) {
            // other stores' statements come sanitised from their plugins; JDBC's SQL is sanitised here
            tag(Tags.DB_STATEMENT, s.callTarget() != null ? s.target() : SqlSanitizer.sanitize(s.target()));
        }
        peerTag(s);
    }

    private void writeMessagingTags(RecordedSpan s) {
        if (s.method() != null) {
            tag(Tags.MESSAGING_SYSTEM, s.method());
        }
        if (s.target() != null) {
            tag(Tags.MESSAGING_DESTINATION, s.target());
        }
        tag(Tags.MESSAGING_OPERATION, s.messagingOperation());
    }

    /** rpc.system, rpc.service and rpc.method from the full method, the status code, and the peer of a client. */
    private void writeRpcTags(RecordedSpan s) {
        if (s.method() != null) {
            tag(Tags.RPC_SYSTEM, s.method());
        }
        String full = s.target();
        if (full != null) {
            int slash = full.lastIndexOf('/');
            tag(Tags.RPC_SERVICE, slash < 0 ? full : full.substring(0, slash));
            if (slash >= 0) {
                tag(Tags.RPC_METHOD, full.substring(slash + 1));
            }
        }
        if (s.httpStatus() >= 0) {
            int tag = out.beginMessage(SPAN_TAGS);
            out.writeString(TAG_KEY, Tags.RPC_GRPC_STATUS_CODE);
            out.writeDecimalString(TAG_VALUE, s.httpStatus());
            out.endMessage(tag);
        }
        peerTag(s);
    }

    private void writeHttpTags(RecordedSpan s) {
        if (s.method() != null) {
            tag(Tags.HTTP_METHOD, s.method());
        }
        if (s.target() != null) {
            tag(s.kind() == RecordedSpan.KIND_CLIENT ? Tags.HTTP_URL : Tags.HTTP_PATH, s.target());
        }
        if (s.route() != null) {
            tag(Tags.HTTP_ROUTE, s.route());
        }
        if (s.httpStatus() >= 0) {
            int tag = out.beginMessage(SPAN_TAGS);
            out.writeString(TAG_KEY, Tags.HTTP_STATUS_CODE);
            out.writeDecimalString(TAG_VALUE, s.httpStatus());
            out.endMessage(tag);
        }
        peerTag(s);
    }

    /** "host:port", or the host alone without a port. */
    private void peerTag(RecordedSpan s) {
        if (s.host() == null) {
            return;
        }
        if (s.port() <= 0) {
            tag(Tags.PEER, s.host());
            return;
        }
        int tag = out.beginMessage(SPAN_TAGS);
        out.writeString(TAG_KEY, Tags.PEER);
        out.writeWithNumber(TAG_VALUE, s.host(), ':', s.port());
        out.endMessage(tag);
    }

    private void tag(String key, String value) {
        int tag = out.beginMessage(SPAN_TAGS);
        out.writeString(TAG_KEY, key);
        out.writeString(TAG_VALUE, value);
        out.endMessage(tag);
    }
}
