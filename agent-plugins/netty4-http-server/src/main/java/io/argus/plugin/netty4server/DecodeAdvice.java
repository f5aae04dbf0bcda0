package io.argus.plugin.netty4server;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import net.bytebuddy.asm.Advice;

import java.util.List;

/**
 * Inlined into {@code io.netty.handler.codec.http.HttpObjectDecoder#decode(ctx, buffer, out)}, on the
 * channel's event loop; acts only on request decoders ({@code HttpRequestDecoder}, which
 * {@code HttpServerCodec} uses). A decode call yields at most one request head (plus its content),
 * and {@code ByteToMessageDecoder} passes the call's output to the next handlers before it decodes
 * again, so:
 * <ul>
 *   <li>on enter, the span of the connection's latest unanswered request (whose body may be what is
 *       being decoded now, e.g. for {@code HttpObjectAggregator}) is made current;</li>
 *   <li>on exit, for a decoded {@code HttpRequest}: that context is undone,
 *       {@code ServerCalls.start} starts the server span (current while the handlers see the
 *       request), joining the inbound context it reads through {@link RequestHeaders}, and the
 *       request is queued in the channel's {@link UnansweredRequests}.</li>
 * </ul>
 * {@code ByteToMessageDecoder}'s own advice ({@link ContextGuardAdvice}) restores the event loop's
 * context after the inbound event.
 *
 * <p>An untraced request allocates nothing here once its connection has its
 * {@link UnansweredRequests}, except the path of a URI with a query string the connection has not
 * seen just before.
 */
public final class DecodeAdvice {

    private DecodeAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static int enter(@Advice.This Object decoder, @Advice.Argument(0) ChannelHandlerContext ctx,
                            @Advice.Argument(2) List<Object> out, @Advice.Local("argusPrevious") Object previous) {
        if (!(decoder instanceof HttpRequestDecoder)) {
            return -1;
        }
        previous = TraceContext.current();
        UnansweredRequests requests = UnansweredRequests.ON_CHANNEL.get(ctx.channel());
        if (requests != null) {
            ActiveSpan latest = requests.latestSpan();
            if (latest != null && latest != previous) {
                TraceContext.attach(latest);
            }
        }
        return out.size();
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(0) ChannelHandlerContext ctx, @Advice.Argument(2) List<Object> out,
                            @Advice.Enter int sizeBefore, @Advice.Local("argusPrevious") Object previous) {
        if (sizeBefore < 0) {
            return;
        }
        int size = out.size();
        for (int i = sizeBefore; i < size; i++) {
            Object decoded = out.get(i);
            if (!(decoded instanceof HttpRequest)) {
                continue;
            }
            HttpRequest request = (HttpRequest) decoded;
            long startNanos = System.nanoTime();
            UnansweredRequests requests = UnansweredRequests.of(ctx.channel());
            String method = request.method().name();
            String path = requests.path(request.uri());
            requests.add(startNanos, method, path);
            // the previous request's span (made current on enter) must not become this one's parent
            TraceContext.restore(previous);
            requests.setLatestSpan(ServerCalls.start(method, path, request, RequestHeaders.INSTANCE));
        }
    }
}
