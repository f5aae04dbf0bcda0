package io.argus.plugin.netty4server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AttributeKey;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code io.netty.handler.codec.http.HttpObjectEncoder#encode(ctx, msg, out)}, which
 * {@code write} calls for every outbound HTTP message, on the channel's event loop; acts only on
 * response encoders ({@code HttpResponseEncoder}, which {@code HttpServerCodec} uses), and only for
 * an {@code HttpResponse} (the head: its status is kept) or a {@code LastHttpContent} (the end of
 * the response). A {@code FullHttpResponse} is both.
 *
 * <p>The end of a response completes the connection's oldest unanswered request (HTTP/1.1 answers
 * in order): {@code Argus.serverEnd} with the status of the response head, once per request however
 * many content parts were written. 1xx heads other than 101 are interim (e.g. the
 * {@code 100 Continue} of {@code HttpObjectAggregator}) and skipped. A new head while the previous
 * response never got its {@code LastHttpContent} first completes the previous request. Body parts
 * ({@code HttpContent}, {@code ByteBuf}, {@code FileRegion}) cost two {@code instanceof} checks.
 * Nothing here allocates.
 */
public final class EncodeAdvice {

    private EncodeAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object encoder, @Advice.Argument(0) ChannelHandlerContext ctx,
                             @Advice.Argument(1) Object message) {
        boolean head = message instanceof HttpResponse;
        boolean last = message instanceof LastHttpContent;
        if ((!head && !last) || !(encoder instanceof HttpResponseEncoder)) {
            return;
        }
        int code = 0;
        if (head) {
            code = ((HttpResponse) message).status().code();
            if (code >= 100 && code < 200 && code != 101) {
                return;
            }
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
        // pass 0: a head while the previous response is unfinished ends that one first;
        // pass 1: this message ends the current response
        for (int pass = 0; pass < 2; pass++) {
            long[] nums = (long[]) state[0];
            int status;
            if (pass == 0) {
                if (!head || nums[2] == 0) {
                    continue;
                }
                status = (int) nums[2];
            } else if (!last) {
                if (nums[0] < nums[1]) {
                    nums[2] = code;
                }
                return;
            } else {
                status = head ? code : (int) nums[2];
            }
            if (nums[0] >= nums[1]) {
                return; // nothing unanswered: a response this plugin did not see the request of
            }
            int slot = (int) (nums[0] % (nums.length - 3));
            Object[] methods = (Object[]) state[1];
            Object[] paths = (Object[]) state[2];
            Object[] spans = (Object[]) state[3];
            long startNanos = nums[3 + slot];
            String method = (String) methods[slot];
            String path = (String) paths[slot];
            ActiveSpan span = (ActiveSpan) spans[slot];
            methods[slot] = null;
            paths[slot] = null;
            spans[slot] = null;
            nums[2] = 0;
            nums[0]++;
            Argus.serverEnd(span, startNanos, method, path, status, null);
        }
    }
}
