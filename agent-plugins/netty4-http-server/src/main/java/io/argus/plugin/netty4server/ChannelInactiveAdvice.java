package io.argus.plugin.netty4server;

import io.argus.bridge.context.TraceContext;
import io.netty.channel.ChannelHandlerContext;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code io.netty.handler.codec.ByteToMessageDecoder#channelInactive}: the connection is
 * gone. Like {@link ContextGuardAdvice} it restores the event loop's context afterwards (the decoder
 * may decode what was left, with spans made current). It also ends every request of the connection
 * still waiting for its response ({@link UnansweredRequests#connectionClosed}): {@code ServerCalls.end}
 * with status 0 (no response was sent), or the status of a response whose head went out but whose
 * end did not. Runs once per decoder per connection; a channel without unanswered requests costs a
 * field read. Refers to no HTTP class.
 */
public final class ChannelInactiveAdvice {

    private ChannelInactiveAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter() {
        return TraceContext.current();
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) ChannelHandlerContext ctx, @Advice.Enter Object previous) {
        if (TraceContext.current() != previous) {
            TraceContext.restore(previous);
        }
        UnansweredRequests requests = UnansweredRequests.ON_CHANNEL.get(ctx.channel());
        if (requests != null) {
            requests.connectionClosed(ctx.channel());
        }
    }
}
