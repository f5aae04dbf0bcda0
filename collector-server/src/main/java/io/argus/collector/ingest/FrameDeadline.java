package io.argus.collector.ingest;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The minimum-progress rule: once a frame has begun, it must arrive complete within {@code --frame-timeout}, counted
 * while the collector reads the connection (a pause of its own, for a full store or the memory budget, restarts the
 * clock). The idle timeout resets on every byte, so without this one byte every few minutes would hold a connection
 * and its buffered frame for ever. Sits just before the framer, whose buffered bytes tell whether a frame is under
 * way. One instance per connection.
 */
final class FrameDeadline extends ChannelInboundHandlerAdapter {
    private final long timeoutNanos;
    private IngestFrameDecoder framer;
    private ScheduledFuture<?> check;
    /** When the frame now under way began ({@link System#nanoTime}), or 0 while none is. */
    private long startedNanos;

    FrameDeadline(long timeoutMillis) {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        framer = ctx.pipeline().get(IngestFrameDecoder.class);
        long every = Math.max(10, Math.min(1_000, TimeUnit.NANOSECONDS.toMillis(timeoutNanos) / 4));
        check = ctx.executor().scheduleWithFixedDelay(() -> check(ctx), every, every, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ctx.fireChannelRead(msg);
        if (framer == null || framer.bufferedBytes() == 0) {
            startedNanos = 0;
        } else if (startedNanos == 0) {
            startedNanos = System.nanoTime();
        }
    }

    private void check(ChannelHandlerContext ctx) {
        if (startedNanos == 0 || !ctx.channel().isActive() || IngestAttributes.rejected(ctx.channel())) {
            return;
        }
        if (ReadGate.paused(ctx.channel())) {
            startedNanos = System.nanoTime(); // not the client's delay
            return;
        }
        long elapsed = System.nanoTime() - startedNanos;
        if (elapsed > timeoutNanos) {
            startedNanos = 0;
            ctx.fireExceptionCaught(new IngestRejectedException(RejectReason.FRAME_TIMEOUT,
                    "a frame was not complete " + TimeUnit.NANOSECONDS.toMillis(elapsed) + " ms after it began ("
                            + framer.bufferedBytes() + " bytes of it arrived; --frame-timeout)"));
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (check != null) {
            check.cancel(false);
        }
        super.channelInactive(ctx);
    }
}
