package io.argus.plugin.undertow;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.undertow.server.Connectors;
import io.undertow.server.HttpServerExchange;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code Connectors#executeRootHandler(HttpHandler, HttpServerExchange)}, which runs every
 * dispatch of an exchange: first on the I/O thread, then on whatever thread a handler dispatched to.
 *
 * <p>Enter: an exchange without a start time (the default, {@code RECORD_REQUEST_START_TIME} off) is
 * reaching a root handler for the first time, so its start is recorded now through Undertow's own
 * {@code Connectors.setRequestStartTime}, which starts the request ({@link StartAdvice}). Then, for a
 * traced exchange only, the span is made current on this thread until the handler returns.
 *
 * <p>Untraced exchanges allocate nothing: a field read, a nanoTime, a field read.
 */
public final class RootHandlerAdvice {

    private RootHandlerAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.Argument(1) HttpServerExchange exchange,
                               @Advice.Local("argusAttached") boolean attached) {
        if (exchange.getRequestStartTime() == -1L) {
            Connectors.setRequestStartTime(exchange);
        }
        ActiveSpan span = UndertowFields.EXCHANGE_SPAN.get(exchange);
        if (span == null) {
            return null;
        }
        attached = true;
        return TraceContext.attach(span);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object previous, @Advice.Local("argusAttached") boolean attached) {
        if (attached) {
            TraceContext.restore(previous);
        }
    }
}
