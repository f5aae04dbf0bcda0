package io.argus.collector.ingest;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes a connection that has not been accepted as an agent (TLS done, handshake frame validated) within the
 * deadline of {@code --handshake-timeout}: a client that connects and sends nothing, or a few bytes, holds no
 * connection for long. The rejection ({@code handshake_timeout}) goes through the rejection handler like any other.
 * One instance per connection.
 */
final class HandshakeDeadline extends ChannelInboundHandlerAdapter {
    private final long timeoutMillis;
    private ScheduledFuture<?> deadline;

    HandshakeDeadline(long timeoutMillis) {
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        deadline = ctx.executor().schedule(() -> {
            if (ctx.channel().isActive() && ctx.channel().attr(IngestAttributes.SESSION).get() == null) {
                ctx.fireExceptionCaught(new IngestRejectedException(RejectReason.HANDSHAKE_TIMEOUT,
                        "no handshake within " + timeoutMillis + " ms of connecting (--handshake-timeout)"));
            }
        }, timeoutMillis, TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (deadline != null) {
            deadline.cancel(false);
        }
        super.channelInactive(ctx);
    }
}
