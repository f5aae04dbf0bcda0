package io.argus.collector.ingest;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.argus.collector.RateLimitedLog;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Last stage of the ingest pipeline: turns any failure into "close this connection", with a WARN line naming the
 * reason and the remote address (at most one per reason every 10 s; the next one says how many were left out, so an
 * agent retrying with a wrong token cannot flood the log), one count in {@code argus.collector.frames.rejected}, and,
 * to an agent that reads replies, a {@code Refusal} saying why. Also closes connections that stayed idle past the
 * timeout. Other connections are never affected.
 */
@ChannelHandler.Sharable
final class RejectionHandler extends ChannelInboundHandlerAdapter {
    static final Logger LOG = Logger.getLogger("io.argus.collector.ingest");
    static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final IngestMetrics metrics;
    private final RateLimitedLog warnings = new RateLimitedLog(LOG, LOG_INTERVAL_NANOS);

    RejectionHandler(IngestMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (IngestAttributes.rejected(ctx.channel())) {
            return; // already rejected and closing; report the first reason only
        }
        if (isConnectionError(cause)) {
            LOG.log(Level.FINE, "agent connection from " + IngestAttributes.remote(ctx.channel()) + " failed", cause);
            ctx.close();
            return;
        }
        ctx.channel().attr(IngestAttributes.REJECTED).set(Boolean.TRUE);
        RejectReason reason;
        String detail;
        Throwable root = unwrap(cause);
        if (root instanceof IngestRejectedException r) {
            reason = r.reason();
            detail = r.getMessage();
        } else if (root instanceof TooLongFrameException) {
            reason = RejectReason.FRAME_TOO_LARGE;
            detail = root.getMessage();
        } else if (root instanceof CorruptedFrameException) {
            reason = RejectReason.BAD_LENGTH;
            detail = root.getMessage();
        } else {
            reason = RejectReason.INTERNAL_ERROR;
            detail = String.valueOf(root);
            LOG.log(Level.FINE, "unexpected ingest failure", cause);
        }
        metrics.rejected(reason);
        AgentSession session = ctx.channel().attr(IngestAttributes.SESSION).get();
        String why = detail == null || detail.isEmpty() ? reason.label() : oneLine(detail);
        warnings.warn(reason, "rejected agent connection from " + IngestAttributes.remote(ctx.channel())
                + (session != null ? " (" + session.source() + ")" : "") + ": " + reason.label()
                + (detail == null || detail.isEmpty() ? "" : " - " + why));
        RefusalFrames.close(ctx.channel(), RefusalFrames.reasonOf(reason), why);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent) {
            metrics.idleClosed();
            LOG.info("closing idle agent connection from " + IngestAttributes.remote(ctx.channel()));
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // end of the line: nothing to pass on
    }

    private static Throwable unwrap(Throwable t) {
        Throwable cur = t;
        for (int i = 0; i < 8 && cur != null; i++) {
            if (cur instanceof IngestRejectedException || cur instanceof TooLongFrameException
                    || cur instanceof CorruptedFrameException) {
                return cur;
            }
            cur = cur.getCause();
        }
        return t.getCause() != null && t instanceof io.netty.handler.codec.DecoderException ? t.getCause() : t;
    }

    private static boolean isConnectionError(Throwable t) {
        return t instanceof IOException;
    }

    private static String oneLine(String s) {
        String flat = s.replace('\n', ' ').replace('\r', ' ');
        return flat.length() > 300 ? flat.substring(0, 300) + "..." : flat;
    }
}
