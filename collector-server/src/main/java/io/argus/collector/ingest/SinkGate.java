package io.argus.collector.ingest;

import io.argus.collector.RateLimitedLog;
import io.argus.collector.storage.IngestSink;
import io.argus.protocol.RefusalReason;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * First stage of an agent connection: while the {@link IngestSink} cannot hand data on (its message bus is
 * unreachable), new connections are closed at once and open ones are closed within {@value #CHECK_MILLIS} ms,
 * each with a logged reason, and no byte of theirs is read. Agents then fail over to the next collector of their
 * list, or keep buffering (bounded, drops counted) until this one accepts again. One instance per connection.
 */
final class SinkGate extends ChannelInboundHandlerAdapter {
    static final long CHECK_MILLIS = 250;
    private static final RateLimitedLog LOG =
            new RateLimitedLog(Logger.getLogger(SinkGate.class.getName()), TimeUnit.SECONDS.toNanos(10));

    private final IngestSink sink;
    private final IngestMetrics metrics;
    private ScheduledFuture<?> check;

    SinkGate(IngestSink sink, IngestMetrics metrics) {
        this.sink = sink;
        this.metrics = metrics;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (!sink.accepting()) {
            refuse(ctx, "refusing agent connection from ");
            return;
        }
        check = ctx.executor().scheduleWithFixedDelay(() -> {
            if (!sink.accepting() && ctx.channel().isActive()) {
                refuse(ctx, "closing agent connection from ");
            }
        }, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!sink.accepting()) {
            ReferenceCountUtil.release(msg);
            if (ctx.channel().isActive()) {
                refuse(ctx, "closing agent connection from ");
            }
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (check != null) {
            check.cancel(false);
        }
        super.channelInactive(ctx);
    }

    private void refuse(ChannelHandlerContext ctx, String what) {
        if (IngestAttributes.rejected(ctx.channel())) {
            return; // refused already, lingering until the agent closes
        }
        if (check != null) {
            check.cancel(false);
        }
        ctx.channel().config().setAutoRead(false);
        // not a rejection of what the agent sent: no second line from the rejection handler for a cut frame
        ctx.channel().attr(IngestAttributes.REJECTED).set(Boolean.TRUE);
        metrics.refusedUnavailable();
        String reason = sink.unavailableReason();
        LOG.warn(SinkGate.class, what + IngestAttributes.remote(ctx.channel()) + ": " + reason
                + "; agents fail over to their next collector or buffer until this one accepts again");
        RefusalFrames.close(ctx.channel(), RefusalReason.REFUSAL_REASON_UNAVAILABLE, reason
                + "; what this collector did not acknowledge is not stored");
    }
}
