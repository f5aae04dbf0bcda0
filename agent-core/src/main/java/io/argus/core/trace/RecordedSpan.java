package io.argus.core.trace;

import io.argus.bridge.ActiveSpan;

import java.nio.charset.StandardCharsets;

/**
 * One sampled span. Written by the application thread that owns it until it is finished, then
 * handed to the exporter through a lock-free queue and never touched by the application again.
 * HTTP fields are kept apart rather than as tags, so that a traced request allocates only this
 * object; names and tags are composed later, on the exporter thread.
 */
public final class RecordedSpan extends ActiveSpan {

    public static final byte KIND_SERVER = 1;
    public static final byte KIND_CLIENT = 2;
    public static final byte KIND_INTERNAL = 3;
    /** A message sent to a broker: method = the messaging system, target = the destination (topic). */
    public static final byte KIND_PRODUCER = 4;
    /** A message (or batch) processed from a broker: method = the messaging system, target = the destination. */
    public static final byte KIND_CONSUMER = 5;

    public static final byte STATUS_UNSET = 0;
    public static final byte STATUS_OK = 1;
    public static final byte STATUS_ERROR = 2;

    long traceIdHigh;
    long traceIdLow;
    long spanId;
    long parentSpanId;
    final byte kind;
    byte status;
    String method;
    /**
     * What the span is about: server, the request path; client, the full URL; database, the SQL; internal,
     * the span's name. One field for all kinds keeps the span (two per traced request) small.
     */
    String target;
    /** Server: the route the request matched (a template such as {@code /orders/{id}}), or null. */
    String route;
    String host;
    int port = -1;
    int httpStatus = -1;
    String error;
    String tracestate;
    /**
     * An RPC span (gRPC): method is then the RPC system, target the full method ({@code package.Service/Method})
     * and httpStatus the RPC status code.
     */
    boolean rpc;
    /** Database spans only: the system (h2, postgresql, ...) and the database name. */
    String dbSystem;
    String dbName;
    /** Database calls of stores other than JDBC: the metrics target ({@code redis://host:port}), kept until the call ends. */
    String callTarget;
    long startNanoTime;
    long durationNanos = -1;
    /** What was current on the starting thread before this span; restored by {@code detach}. */
    RecordedSpan previous;
    private String[] extraTags;
    /** At most 32 (the array stops growing at 64 slots). */
    private byte extraTagCount;

    RecordedSpan(byte kind) {
        this.kind = kind;
    }

    @Override
    public String traceparent() {
        // Latin-1 bytes: the string keeps them as they are (a char[] would be compressed into a second array)
        byte[] out = new byte[55];
        out[0] = '0';
        out[1] = '0';
        out[2] = '-';
        TraceIds.writeHex(traceIdHigh, out, 3);
        TraceIds.writeHex(traceIdLow, out, 19);
        out[35] = '-';
        TraceIds.writeHex(spanId, out, 36);
        out[52] = '-';
        out[53] = '0';
        out[54] = '1';
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    @Override
    public String traceIdHex() {
        char[] out = new char[32];
        TraceIds.writeHex(traceIdHigh, out, 0);
        TraceIds.writeHex(traceIdLow, out, 16);
        return new String(out);
    }

    @Override
    public String spanIdHex() {
        char[] out = new char[16];
        TraceIds.writeHex(spanId, out, 0);
        return new String(out);
    }

    @Override
    public String tracestate() {
        return tracestate;
    }

    @Override
    public void tag(String key, String value) {
        if (key == null || value == null) {
            return;
        }
        if (extraTags == null) {
            extraTags = new String[4];
        } else if (extraTagCount * 2 == extraTags.length) {
            if (extraTags.length >= 64) {
                return;
            }
            String[] grown = new String[extraTags.length * 2];
            System.arraycopy(extraTags, 0, grown, 0, extraTags.length);
            extraTags = grown;
        }
        extraTags[extraTagCount * 2] = key;
        extraTags[extraTagCount * 2 + 1] = value;
        extraTagCount++;
    }

    public void setRoute(String route) {
        this.route = route;
    }

    public String route() {
        return route;
    }

    public void setHttpStatus(int status) {
        this.httpStatus = status;
    }

    void finish(long endNanoTime, Throwable thrown, boolean failed) {
        durationNanos = Math.max(0, endNanoTime - startNanoTime);
        if (thrown != null) {
            error = thrown.getClass().getName();
        }
        status = failed || thrown != null ? STATUS_ERROR : STATUS_OK;
        previous = null;
    }

    public boolean isFinished() {
        return durationNanos >= 0;
    }

    // ---- read by the exporter

    public long traceIdHigh() {
        return traceIdHigh;
    }

    public long traceIdLow() {
        return traceIdLow;
    }

    public long spanId() {
        return spanId;
    }

    public long parentSpanId() {
        return parentSpanId;
    }

    public byte kind() {
        return kind;
    }

    public byte status() {
        return status;
    }

    public long startEpochNanos() {
        return Tracer.EPOCH_OFFSET_NANOS + startNanoTime;
    }

    public long durationNanos() {
        return durationNanos;
    }

    public String method() {
        return method;
    }

    public String target() {
        return kind == KIND_INTERNAL ? null : target;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String error() {
        return error;
    }

    /** Non-null for a database (JDBC) span; its SQL is then in {@link #target()}, raw. */
    public String dbSystem() {
        return dbSystem;
    }

    public String dbName() {
        return dbName;
    }

    /**
     * The metrics target of a database call of a store other than JDBC ({@code ""} when the plugin knew
     * none at the start); null for every other span.
     */
    public String callTarget() {
        return callTarget;
    }

    /** The name the span was given (internal spans); null for the others, whose name is composed from their fields. */
    public String name() {
        return kind == KIND_INTERNAL ? target : null;
    }

    public int extraTagCount() {
        return extraTagCount;
    }

    public String extraTagKey(int i) {
        return extraTags[i * 2];
    }

    public String extraTagValue(int i) {
        return extraTags[i * 2 + 1];
    }

    /** Whether this is an RPC span: method is then the RPC system, target the full method, httpStatus its status code. */
    public boolean isRpc() {
        return rpc;
    }

    /** Whether this is a PRODUCER or CONSUMER span: method is then the messaging system, target the destination. */
    public boolean isMessaging() {
        return kind == KIND_PRODUCER || kind == KIND_CONSUMER;
    }

    /** "publish" for a PRODUCER span, "process" for a CONSUMER span (OpenTelemetry's operation names). */
    public String messagingOperation() {
        return kind == KIND_PRODUCER ? "publish" : "process";
    }

    /**
     * Server: "GET /route" (or "GET /path" without a route); client: "GET host"; database: "SELECT dbname";
     * messaging: "publish topic" or "process topic"; RPC: the full method; internal: the given name.
     */
    public String displayName() {
        if (kind == KIND_INTERNAL && target != null) {
            return target;
        }
        if (isMessaging()) {
            return messagingOperation() + ' ' + target;
        }
        if (rpc) {
            return target;
        }
        if (dbSystem != null) {
            return method + ' ' + (dbName != null ? dbName : dbSystem);
        }
        String m = method == null ? "HTTP" : method;
        if (kind == KIND_SERVER) {
            String named = route != null ? route : target;
            return named == null ? m : m + ' ' + named;
        }
        return host == null ? m : m + ' ' + host;
    }
}
