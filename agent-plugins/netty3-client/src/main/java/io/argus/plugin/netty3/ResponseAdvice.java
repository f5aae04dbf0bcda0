package io.argus.plugin.netty3;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.handler.codec.http.HttpChunk;
import org.jboss.netty.handler.codec.http.HttpResponse;
import org.jboss.netty.handler.codec.http.HttpResponseDecoder;

/**
 * Inlined into {@code org.jboss.netty.handler.codec.http.HttpMessageDecoder#decode(ctx, channel,
 * buffer, state)}, the decoding state machine that {@code HttpClientCodec}'s decoder (a
 * {@code ReplayingDecoder}) calls, on the connection's I/O thread. Runs when decode returns a
 * message, before the message reaches the handlers behind the codec; acts only for response
 * decoders whose context carries this plugin's state. What decode returns:
 * <ul>
 *   <li>an {@code HttpResponse} the decoder no longer holds in its {@code message} field: a
 *       complete response (its body, if any, read);</li>
 *   <li>an {@code HttpResponse} the decoder still holds: only its head, whose body follows as
 *       chunks (chunked transfer encoding, a body larger than the decoder's chunk size, or one
 *       delimited by the connection's close). Its status is kept in the connection's state. The
 *       decoder also keeps the head of a response that can have no body (1xx, 204, 205, 304, or an
 *       answer to HEAD or a successful CONNECT): those are complete;</li>
 *   <li>an {@code HttpChunk} whose {@code isLast()} is true (also a trailer): the end of the
 *       response whose head came before;</li>
 *   <li>an {@code Object[]} of those (a head with its first chunk, or a chunk with the last one).</li>
 * </ul>
 * A completed response ends the oldest unanswered request of the connection (HTTP/1.x answers in
 * order): {@code Argus.clientEnd} with the response's status, once per request whatever the number
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
        Object[] parts = null;
        int count = 1;
        if (decoded instanceof Object[]) {
            parts = (Object[]) decoded;
            count = parts.length;
        } else if (!(decoded instanceof HttpResponse) && !(decoded instanceof HttpChunk)) {
            return;
        }
        Object attachment = ctx.getAttachment();
        if (!(attachment instanceof Object[])) {
            return;
        }
        Object[] state = (Object[]) attachment;
        if (state.length != 6 || !(state[0] instanceof long[])) {
            return;
        }
        for (int k = 0; k < count; k++) {
            Object part = parts == null ? decoded : parts[k];
            int status;
            boolean headOnly = false;
            if (part instanceof HttpResponse) {
                status = ((HttpResponse) part).getStatus().getCode();
                if (status >= 100 && status < 200 && status != 101) {
                    continue;
                }
                headOnly = (parts != null || part == held)
                        && status != 101 && status != 204 && status != 205 && status != 304;
            } else if (part instanceof HttpChunk && ((HttpChunk) part).isLast()) {
                status = -1;
            } else {
                continue;
            }
            boolean found = false;
            long startNanos = 0L;
            String method = null;
            String host = null;
            ActiveSpan span = null;
            synchronized (state) {
                long[] nums = (long[]) state[0];
                if (nums[0] < nums[1]) {
                    int slot = (int) (nums[0] % (nums.length - 3));
                    Object[] methods = (Object[]) state[1];
                    method = (String) methods[slot];
                    if (headOnly && ("HEAD".equals(method) || (status == 200 && "CONNECT".equals(method)))) {
                        headOnly = false; // no body can follow: the decoder is done with it
                    }
                    if (headOnly) {
                        nums[2] = status;
                    } else {
                        Object[] hosts = (Object[]) state[2];
                        Object[] spans = (Object[]) state[3];
                        startNanos = nums[3 + slot];
                        host = (String) hosts[slot];
                        span = (ActiveSpan) spans[slot];
                        methods[slot] = null;
                        hosts[slot] = null;
                        spans[slot] = null;
                        if (status < 0) {
                            status = (int) nums[2];
                        }
                        nums[2] = 0;
                        nums[0]++;
                        found = true;
                    }
                }
            }
            if (found) {
                Argus.clientEnd(span, startNanos, method, host, status, null);
            }
        }
    }
}
