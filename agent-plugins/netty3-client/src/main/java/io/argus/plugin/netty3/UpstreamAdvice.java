package io.argus.plugin.netty3;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.jboss.netty.channel.ChannelEvent;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.channel.ChannelState;
import org.jboss.netty.channel.ChannelStateEvent;
import org.jboss.netty.channel.ExceptionEvent;

/**
 * Inlined into {@code org.jboss.netty.handler.codec.http.HttpClientCodec#handleUpstream}, which
 * passes every upstream event of the connection to the codec's decoder, on the I/O thread.
 * <ul>
 *   <li>On enter, an {@code ExceptionEvent} (an I/O error, a failed write, a decoding error...)
 *       ends every request still waiting for its response on this connection, with that cause;
 *       the event then goes on to the application's handlers unchanged.</li>
 *   <li>On exit, the channel's close ({@code OPEN = false}, after the decoder has decoded what was
 *       left, e.g. a body delimited by the close) ends every request still waiting. A response
 *       whose head arrived keeps its status (a body that ends with the connection is complete);
 *       one without any response is recorded with status 0, as failed, and with the exception the
 *       codec threw, if any ({@code PrematureChannelClosureException} with
 *       {@code failOnMissingResponse}).</li>
 * </ul>
 * For any other event this is two {@code instanceof} checks.
 */
public final class UpstreamAdvice {

    private UpstreamAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) ChannelHandlerContext ctx, @Advice.Argument(1) ChannelEvent event) {
        if (!(event instanceof ExceptionEvent)) {
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
        Throwable cause = ((ExceptionEvent) event).getCause();
        for (;;) {
            boolean found = false;
            long startNanos = 0L;
            String method = null;
            String host = null;
            ActiveSpan span = null;
            int status = 0;
            synchronized (state) {
                long[] nums = (long[]) state[0];
                if (nums[0] < nums[1]) {
                    int slot = (int) (nums[0] % (nums.length - 3));
                    Object[] methods = (Object[]) state[1];
                    Object[] hosts = (Object[]) state[2];
                    Object[] spans = (Object[]) state[3];
                    startNanos = nums[3 + slot];
                    method = (String) methods[slot];
                    host = (String) hosts[slot];
                    span = (ActiveSpan) spans[slot];
                    methods[slot] = null;
                    hosts[slot] = null;
                    spans[slot] = null;
                    status = (int) nums[2];
                    nums[2] = 0;
                    nums[0]++;
                    found = true;
                }
            }
            if (!found) {
                return;
            }
            Argus.clientEnd(span, startNanos, method, host, status, cause);
        }
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) ChannelHandlerContext ctx, @Advice.Argument(1) ChannelEvent event,
                            @Advice.Thrown Throwable thrown) {
        if (!(event instanceof ChannelStateEvent)) {
            return;
        }
        ChannelStateEvent stateEvent = (ChannelStateEvent) event;
        if (stateEvent.getState() != ChannelState.OPEN || !Boolean.FALSE.equals(stateEvent.getValue())) {
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
        for (;;) {
            boolean found = false;
            long startNanos = 0L;
            String method = null;
            String host = null;
            ActiveSpan span = null;
            int status = 0;
            synchronized (state) {
                long[] nums = (long[]) state[0];
                if (nums[0] < nums[1]) {
                    int slot = (int) (nums[0] % (nums.length - 3));
                    Object[] methods = (Object[]) state[1];
                    Object[] hosts = (Object[]) state[2];
                    Object[] spans = (Object[]) state[3];
                    startNanos = nums[3 + slot];
                    method = (String) methods[slot];
                    host = (String) hosts[slot];
                    span = (ActiveSpan) spans[slot];
                    methods[slot] = null;
                    hosts[slot] = null;
                    spans[slot] = null;
                    status = (int) nums[2];
                    nums[2] = 0;
                    nums[0]++;
                    found = true;
                }
            }
            if (!found) {
                return;
            }
            Throwable error = thrown;
            if (error == null && status <= 0 && span != null) {
                // traced only: give the span a reason
                error = new java.io.IOException("connection closed before the response arrived");
            }
            Argus.clientEnd(span, startNanos, method, host, status, error);
        }
    }
}
