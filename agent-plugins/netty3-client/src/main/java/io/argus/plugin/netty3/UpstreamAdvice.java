package io.argus.plugin.netty3;

import net.bytebuddy.asm.Advice;
import org.jboss.netty.channel.ChannelEvent;
import org.jboss.netty.channel.ChannelHandlerContext;
import org.jboss.netty.channel.ChannelState;
import org.jboss.netty.channel.ChannelStateEvent;
import org.jboss.netty.channel.ExceptionEvent;
import org.jboss.netty.handler.codec.http.HttpClientCodec;

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
 * Both end the codec's {@link PendingCalls}. For any other event this is two {@code instanceof} checks.
 */
public final class UpstreamAdvice {

    private UpstreamAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This HttpClientCodec codec, @Advice.Argument(1) ChannelEvent event) {
        if (!(event instanceof ExceptionEvent)) {
            return;
        }
        PendingCalls calls = PendingCalls.ON_CODEC.get(codec);
        if (calls != null) {
            calls.endAll(((ExceptionEvent) event).getCause(), false);
        }
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.This HttpClientCodec codec, @Advice.Argument(1) ChannelEvent event,
                            @Advice.Thrown Throwable thrown) {
        if (!(event instanceof ChannelStateEvent)) {
            return;
        }
        ChannelStateEvent stateEvent = (ChannelStateEvent) event;
        if (stateEvent.getState() != ChannelState.OPEN || !Boolean.FALSE.equals(stateEvent.getValue())) {
            return;
        }
        PendingCalls calls = PendingCalls.ON_CODEC.get(codec);
        if (calls != null) {
            calls.endAll(thrown, true);
        }
    }
}
