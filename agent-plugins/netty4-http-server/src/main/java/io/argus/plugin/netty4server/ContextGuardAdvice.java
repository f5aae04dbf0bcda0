package io.argus.plugin.netty4server;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code io.netty.handler.codec.ByteToMessageDecoder#channelRead} and
 * {@code #userEventTriggered}: the inbound events during which {@link DecodeAdvice} makes a request's
 * span current, so that the handlers behind the HTTP codec run with it. When the event is done,
 * the event loop gets back the context it had before (normally none), so nothing leaks to the next
 * channel or request served by the same thread.
 *
 * <p>This runs for every {@code ByteToMessageDecoder} of the application, HTTP or not: it is two
 * reads of the current context and a comparison, allocates nothing, and refers to no HTTP class,
 * so it also works where Netty's HTTP codec is absent.
 */
public final class ContextGuardAdvice {

    private ContextGuardAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter() {
        return TraceContext.current();
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object previous) {
        if (TraceContext.current() != previous) {
            TraceContext.restore(previous);
        }
    }
}
