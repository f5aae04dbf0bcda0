package io.argus.plugin.netty3;

import net.bytebuddy.asm.Advice;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.handler.codec.http.HttpResponseDecoder;

/**
 * Inlined into {@code org.jboss.netty.handler.codec.http.HttpMessageDecoder#decode(ctx, channel,
 * buffer, state)}, the decoding state machine that {@code HttpClientCodec}'s decoder (a
 * {@code ReplayingDecoder}) calls, on the connection's I/O thread. Runs when decode returns a
 * message, before the message reaches the handlers behind the codec; acts only for response
 * decoders of an {@code HttpClientCodec} (the handler of the context it decodes for) that has
 * {@link PendingCalls}. What decode returns:
 * <ul>
 *   <li>an {@code HttpResponse} the decoder no longer holds in its {@code message} field: a
 *       complete response (its body, if any, read);</li>
 *   <li>an {@code HttpResponse} the decoder still holds: only its head, whose body follows as
 *       chunks (chunked transfer encoding, a body larger than the decoder's chunk size, or one
 *       delimited by the connection's close). Its status is kept with the pending calls. The
 *       decoder also keeps the head of a response that can have no body (1xx, 204, 205, 304, or an
 *       answer to HEAD or a successful CONNECT): those are complete;</li>
 *   <li>an {@code HttpChunk} whose {@code isLast()} is true (also a trailer): the end of the
 *       response whose head came before;</li>
 *   <li>an {@code Object[]} of those (a head with its first chunk, or a chunk with the last one).</li>
 * </ul>
 * A completed response ends the oldest unanswered request of the connection (HTTP/1.x answers in
 * order): {@code ClientCalls.end} with the response's status, once per request whatever the number
 * of chunks. Interim 1xx responses other than 101 (e.g. {@code 100 Continue}) are skipped.
 *
 * <p>Nothing here allocates. (It reads the decoder's field instead of calling
 * {@code HttpMessage#isChunked()}, which builds a list of the {@code Transfer-Encoding} values
 * for every message that is not chunked.)
 */
public final class ResponseAdvice {

    private ResponseAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object decoder, @Advice.Argument(0) ChannelHandlerContext ctx,
                            @Advice.FieldValue("message") Object held, @Advice.Return Object decoded) {
        if (decoded == null || !(decoder instanceof HttpResponseDecoder)) {
            return;
        }
        PendingCalls calls = PendingCalls.ofHandler(ctx.getHandler());
        if (calls != null) {
            calls.decoded(decoded, held);
        }
    }
}
