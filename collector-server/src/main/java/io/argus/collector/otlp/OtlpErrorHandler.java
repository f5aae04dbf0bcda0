package io.argus.collector.otlp;

import io.argus.collector.net.PeerAddress;
import io.argus.collector.RateLimitedLog;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.compression.DecompressionException;
import io.netty.handler.timeout.ReadTimeoutException;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Last stage of the OTLP pipeline: answers any refused or failed request with the status its reason calls for
 * and a {@code google.rpc.Status} body, counts it in {@code argus.collector.otlp.rejected} and logs one WARN line
 * with the reason and the client address (at most one per reason every 10 s, with the number left out). Only
 * that request, and for 413, 400 on a malformed head and 500 that connection, are affected.
 */
@ChannelHandler.Sharable
final class OtlpErrorHandler extends ChannelInboundHandlerAdapter {
    static final Logger LOG = Logger.getLogger("io.argus.collector.otlp");
    static final long LOG_INTERVAL_NANOS = 10_000_000_000L;

    /** How Netty's zlib decoder says its output buffer, capped at the body limit, is full. */
    static final String DECOMPRESSED_TOO_LARGE = "Decompression buffer has reached maximum size";

    private final OtlpMetrics metrics;
    private final int maxBodyBytes;
    private final RateLimitedLog warnings = new RateLimitedLog(LOG, LOG_INTERVAL_NANOS);

    OtlpErrorHandler(OtlpMetrics metrics, int maxBodyBytes) {
        this.metrics = metrics;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException || cause instanceof ReadTimeoutException) {
            LOG.log(Level.FINE, "OTLP connection from " + remote(ctx) + " failed", cause);
            ctx.close();
            return;
        }
        if (Boolean.TRUE.equals(ctx.channel().attr(OtlpAttributes.CLOSING).get())) {
            LOG.log(Level.FINE, "further failure on a closing OTLP connection from " + remote(ctx), cause);
            return;
        }
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        OtlpRejectReason reason;
        String detail;
        if (root instanceof OtlpRejectedException r) {
            reason = r.reason();
            detail = r.getMessage();
        } else if (root instanceof DecompressionException && String.valueOf(root.getMessage())
                .startsWith(DECOMPRESSED_TOO_LARGE)) {
            // the decompressor's buffer is capped at the body limit: a body that expands past it is too large
            ctx.channel().attr(OtlpAttributes.KEEP_ALIVE).set(Boolean.FALSE);
            reason = OtlpRejectReason.TOO_LARGE;
            detail = "body larger than the limit of " + maxBodyBytes + " bytes once decompressed";
        } else if (root instanceof DecompressionException) {
            reason = OtlpRejectReason.MALFORMED_REQUEST;
            detail = "cannot decompress the body: " + root.getMessage();
        } else {
            reason = OtlpRejectReason.INTERNAL_ERROR;
            detail = "internal error";
            LOG.log(Level.WARNING, "unexpected failure on an OTLP request from " + remote(ctx), cause);
        }
        metrics.rejected(reason);
        log(reason, remote(ctx), detail);
        boolean keepAlive = OtlpAttributes.keepAlive(ctx.channel()) && reason != OtlpRejectReason.TOO_LARGE
                && reason != OtlpRejectReason.MALFORMED_REQUEST && reason != OtlpRejectReason.INTERNAL_ERROR
                && reason != OtlpRejectReason.URI_TOO_LONG && reason != OtlpRejectReason.HEADERS_TOO_LARGE;
        if (!keepAlive) {
            ctx.channel().attr(OtlpAttributes.CLOSING).set(Boolean.TRUE);
        }
        if (ctx.channel().isActive()) {
            OtlpResponses.error(ctx, reason, detail, keepAlive);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg); // end of the line
    }

    private void log(OtlpRejectReason reason, String remote, String detail) {
        warnings.warn(reason, "rejected OTLP request from " + remote + ": " + reason.status().code() + " "
                + reason.label() + " - " + oneLine(detail));
    }

    static String remote(ChannelHandlerContext ctx) {
        return PeerAddress.of(ctx.channel());
    }

    private static String oneLine(String s) {
        String flat = String.valueOf(s).replace('\n', ' ').replace('\r', ' ');
        return flat.length() > 300 ? flat.substring(0, 300) + "..." : flat;
    }
}
