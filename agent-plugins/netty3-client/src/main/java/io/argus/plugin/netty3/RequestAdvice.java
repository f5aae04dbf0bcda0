package io.argus.plugin.netty3;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;
import org.jboss.netty.channel.ChannelEvent;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.channel.MessageEvent;
import org.jboss.netty.handler.codec.http.HttpClientCodec;
import org.jboss.netty.handler.codec.http.HttpRequest;

/**
 * Inlined into {@code org.jboss.netty.handler.codec.http.HttpClientCodec#handleDownstream}: every
 * downstream event of the connection passes here, on the thread that raised it. For a written
 * {@code HttpRequest} (before the codec encodes it) this queues the request in the codec's
 * {@link PendingCalls}: start time, method, the connection's host and, when the writing thread has a
 * sampled span, a client span whose context is set in the request's headers ({@link TracedCall}).
 * An untraced request on a connection that already has its pending calls allocates nothing here.
 */
public final class RequestAdvice {

    private RequestAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This HttpClientCodec codec, @Advice.Argument(0) ChannelHandlerContext ctx,
                             @Advice.Argument(1) ChannelEvent event) {
        if (!(event instanceof MessageEvent)) {
            return;
        }
        Object message = ((MessageEvent) event).getMessage();
        if (!(message instanceof HttpRequest)) {
            return;
        }
        HttpRequest request = (HttpRequest) message;
        long startNanos = System.nanoTime();
        PendingCalls calls = PendingCalls.of(codec);
        String method = request.getMethod().getName();
        String host = calls.host(request, ctx.getChannel());
        ActiveSpan span = TraceContext.current() == null ? null : TracedCall.start(ctx, request, method, host);
        calls.add(startNanos, method, host, span);
    }
}
