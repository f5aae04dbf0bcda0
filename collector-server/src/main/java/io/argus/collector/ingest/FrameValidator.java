package io.argus.collector.ingest;

import io.argus.collector.storage.CallKinds;
import io.argus.collector.storage.Source;
import io.argus.protocol.CallMetric;
import io.argus.protocol.Frame;
import io.argus.protocol.Gauge;
import io.argus.protocol.Handshake;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.Span;
import io.argus.protocol.SpanBatch;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Checks each frame before anything acts on it. The first frame must be a handshake (protocol version 1,
 * a service name and, when the collector has one, the right token); after it come only span batches,
 * metric batches and heartbeats, each within size limits and internally consistent. Any violation throws
 * {@link IngestRejectedException}, which closes the connection. One instance per connection.
 */
final class FrameValidator extends ChannelInboundHandlerAdapter {
    static final int PROTOCOL_VERSION = 1;
    static final int MAX_NAME_CHARS = 256;
    static final int MAX_BUCKETS = 1_000;
    static final long MAX_SPAN_DURATION_NANOS = TimeUnit.DAYS.toNanos(7);

    private final byte[] token;
    private final int maxBatchEntries;
    private final IngestMetrics metrics;

    FrameValidator(String token, int maxBatchEntries, IngestMetrics metrics) {
        this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
        this.maxBatchEntries = maxBatchEntries;
        this.metrics = metrics;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (IngestAttributes.rejected(ctx.channel()) || !(msg instanceof Frame frame)) {
            return;
        }
        AgentSession session = ctx.channel().attr(IngestAttributes.SESSION).get();
        switch (frame.getBodyCase()) {
            case HANDSHAKE -> {
                if (session != null) {
                    throw reject(RejectReason.DUPLICATE_HANDSHAKE, "a second handshake on one connection");
                }
                ctx.channel().attr(IngestAttributes.SESSION).set(handshake(ctx, frame.getHandshake()));
            }
            case SPANS -> {
                requireSession(session, frame);
                spans(frame.getSpans());
            }
            case METRICS -> {
                requireSession(session, frame);
                metrics(frame.getMetrics());
            }
            case HEARTBEAT -> requireSession(session, frame);
            case BODY_NOT_SET -> throw reject(RejectReason.EMPTY_FRAME, "frame without a body");
        }
        metrics.frameReceived(frame);
        ctx.fireChannelRead(frame);
    }

    private static void requireSession(AgentSession session, Frame frame) {
        if (session == null) {
            throw reject(RejectReason.MISSING_HANDSHAKE,
                    "first frame is " + frame.getBodyCase().name().toLowerCase(java.util.Locale.ROOT)
                            + ", not a handshake");
        }
    }

    private AgentSession handshake(ChannelHandlerContext ctx, Handshake h) {
        // before any check: an agent that reads replies is told why it is refused
        ctx.channel().attr(IngestAttributes.READS_REPLIES).set(h.getAcks());
        if (h.getProtocolVersion() != PROTOCOL_VERSION) {
            throw reject(RejectReason.UNSUPPORTED_PROTOCOL_VERSION,
                    "protocol version " + h.getProtocolVersion() + ", this collector speaks " + PROTOCOL_VERSION);
        }
        String service = h.getService().strip();
        if (service.isEmpty()) {
            throw reject(RejectReason.BAD_HANDSHAKE, "handshake without a service name");
        }
        if (service.length() > MAX_NAME_CHARS || h.getInstance().length() > MAX_NAME_CHARS) {
            throw reject(RejectReason.BAD_HANDSHAKE, "service or instance name longer than " + MAX_NAME_CHARS);
        }
        for (String shown : new String[] {h.getService(), h.getInstance(), h.getHost(), h.getAgentVersion(),
            h.getRuntimeVersion()}) {
            if (hasControlCharacter(shown)) {
                throw reject(RejectReason.BAD_HANDSHAKE,
                        "a service, instance, host or version name with a control character");
            }
        }
        if (token != null && !MessageDigest.isEqual(token, h.getToken().getBytes(StandardCharsets.UTF_8))) {
            throw reject(RejectReason.BAD_TOKEN, h.getToken().isEmpty() ? "handshake without the required token"
                    : "handshake token does not match");
        }
        String instance = h.getInstance().strip();
        if (instance.isEmpty()) {
            instance = defaultInstance(h, ctx);
        }
        return new AgentSession(new Source(service, instance), h, IngestAttributes.remote(ctx.channel()),
                System.currentTimeMillis());
    }

    /** C0 and C1 controls, DEL included: no name shown in logs, the API or the UI may hold them. */
    static boolean hasControlCharacter(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.isISOControl(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** host:pid when the agent told them, else its address. */
    private static String defaultInstance(Handshake h, ChannelHandlerContext ctx) {
        if (!h.getHost().isBlank()) {
            return h.getPid() > 0 ? h.getHost().strip() + ":" + h.getPid() : h.getHost().strip();
        }
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return "unknown";
    }

    private void spans(SpanBatch batch) {
        int n = batch.getSpansCount();
        if (n > maxBatchEntries) {
            throw reject(RejectReason.BATCH_TOO_LARGE, n + " spans in one batch, the limit is " + maxBatchEntries);
        }
        List<Span> spans = batch.getSpansList();
        for (int i = 0; i < n; i++) {
            Span s = spans.get(i);
            if (s.getTraceIdHigh() == 0 && s.getTraceIdLow() == 0) {
                throw reject(RejectReason.INVALID_SPAN, "span #" + i + " has a zero trace id");
            }
            if (s.getSpanId() == 0) {
                throw reject(RejectReason.INVALID_SPAN, "span #" + i + " has a zero span id");
            }
            if (s.getStartEpochNanos() <= 0) {
                throw reject(RejectReason.INVALID_SPAN, "span #" + i + " has no start time");
            }
            long d = s.getDurationNanos();
            if (d < 0 || d > MAX_SPAN_DURATION_NANOS) {
                throw reject(RejectReason.INVALID_SPAN, "span #" + i + " has duration " + d + " ns");
            }
        }
        metrics.spansReceived(n);
    }

    private void metrics(MetricBatch batch) {
        int n = batch.getCallsCount() + batch.getJvmCount();
        if (n > maxBatchEntries) {
            throw reject(RejectReason.BATCH_TOO_LARGE, n + " metric entries in one batch, the limit is "
                    + maxBatchEntries);
        }
        if (batch.getTimestampMs() <= 0) {
            throw reject(RejectReason.INVALID_METRICS, "metric batch without a timestamp");
        }
        int bounds = batch.getBucketBoundsNanosCount();
        if (bounds > MAX_BUCKETS) {
            throw reject(RejectReason.INVALID_METRICS, bounds + " bucket bounds, the limit is " + MAX_BUCKETS);
        }
        long previous = -1;
        for (int i = 0; i < bounds; i++) {
            long b = batch.getBucketBoundsNanos(i);
            if (b <= previous) {
                throw reject(RejectReason.INVALID_METRICS, "bucket bounds are not strictly increasing positive values");
            }
            previous = b;
        }
        for (CallMetric m : batch.getCallsList()) {
            if (!CallKinds.known(m.getKindValue())) {
                throw reject(RejectReason.INVALID_METRICS, "call metric of unknown kind " + m.getKindValue());
            }
            if (m.getBucketCountsCount() > bounds + 1) {
                throw reject(RejectReason.INVALID_METRICS, m.getBucketCountsCount() + " bucket counts for "
                        + bounds + " bounds");
            }
            if (m.getCount() < 0 || m.getErrors() < 0 || m.getErrors() > m.getCount() || m.getSumNanos() < 0
                    || m.getMinNanos() < 0 || m.getMaxNanos() < 0
                    || (m.getCount() > 0 && m.getMinNanos() > m.getMaxNanos())) {
                throw reject(RejectReason.INVALID_METRICS, "inconsistent counters for " + m.getMethod() + " "
                        + m.getTarget());
            }
            if (m.getStatus() < 0 || m.getStatus() > 999) {
                throw reject(RejectReason.INVALID_METRICS, "call metric status " + m.getStatus());
            }
            if (m.getMethod().length() > MAX_NAME_CHARS || m.getTarget().length() > 4 * MAX_NAME_CHARS) {
                throw reject(RejectReason.INVALID_METRICS, "call metric method or target too long");
            }
            for (int i = 0; i < m.getBucketCountsCount(); i++) {
                if (m.getBucketCounts(i) < 0) {
                    throw reject(RejectReason.INVALID_METRICS, "negative bucket count");
                }
            }
        }
        for (Gauge g : batch.getJvmList()) {
            if (g.getName().isEmpty() || g.getName().length() > MAX_NAME_CHARS) {
                throw reject(RejectReason.INVALID_METRICS, "gauge without a usable name");
            }
        }
    }

    private static IngestRejectedException reject(RejectReason reason, String detail) {
        return new IngestRejectedException(reason, detail);
    }
}
