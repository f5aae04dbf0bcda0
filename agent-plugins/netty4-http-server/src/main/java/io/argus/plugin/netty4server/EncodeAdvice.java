package io.argus.plugin.netty4server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.LastHttpContent;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code io.netty.handler.codec.http.HttpObjectEncoder#encode(ctx, msg, out)}, which
 * {@code write} calls for every outbound HTTP message, on the channel's event loop; acts only on
 * response encoders ({@code HttpResponseEncoder}, which {@code HttpServerCodec} uses), and only for
 * an {@code HttpResponse} (the head: its status is kept) or a {@code LastHttpContent} (the end of
 * the response). A {@code FullHttpResponse} is both.
 *
 * <p>The end of a response completes the connection's oldest unanswered request (HTTP/1.1 answers
 * in order, {@link UnansweredRequests#responseWritten}): {@code ServerCalls.end} with the status of
 * the response head, once per request however
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
        UnansweredRequests requests = UnansweredRequests.ON_CHANNEL.get(ctx.channel());
        if (requests != null) {
            requests.responseWritten(ctx.channel(), head, last, code);
        }
    }
}
