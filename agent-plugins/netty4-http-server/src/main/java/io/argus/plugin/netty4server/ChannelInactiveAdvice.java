package io.argus.plugin.netty4server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.AttributeKey;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code io.netty.handler.codec.ByteToMessageDecoder#channelInactive}: the connection is
 * gone. Like {@link ContextGuardAdvice} it restores the event loop's context afterwards (the decoder
 * may decode what was left, with spans made current). It also ends every request of the connection
 * still waiting for its response: {@code Argus.serverEnd} with status 0 (no response was sent),
 * the status of a response whose head went out but whose end did not. Runs once per decoder per
 * connection; a channel without the plugin's state costs an attribute look-up. Refers to no HTTP
 * class.
 */
public final class ChannelInactiveAdvice {

    private ChannelInactiveAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter() {
        return Argus.currentContext();
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) ChannelHandlerContext ctx, @Advice.Enter Object previous) {
        if (Argus.currentContext() != previous) {
            Argus.restoreContext(previous);
        }
        Channel channel = ctx.channel();
        AttributeKey<Object> key = AttributeKey.valueOf("io.argus.netty4.http.server");
        if (!channel.hasAttr(key)) {
            return;
        }
        Object attached = channel.attr(key).get();
        if (!(attached instanceof Object[])) {
            return;
        }
        Object[] state = (Object[]) attached;
        if (state.length != 6 || !(state[0] instanceof long[])) {
            return;
        }
        for (;;) {
            long[] nums = (long[]) state[0];
            if (nums[0] >= nums[1]) {
                return;
            }
            int slot = (int) (nums[0] % (nums.length - 3));
            Object[] methods = (Object[]) state[1];
            Object[] paths = (Object[]) state[2];
            Object[] spans = (Object[]) state[3];
            long startNanos = nums[3 + slot];
            String method = (String) methods[slot];
            String path = (String) paths[slot];
            ActiveSpan span = (ActiveSpan) spans[slot];
            int status = (int) nums[2];
            methods[slot] = null;
            paths[slot] = null;
            spans[slot] = null;
            nums[2] = 0;
            nums[0]++;
            Argus.serverEnd(span, startNanos, method, path, status, null);
        }
    }
}
