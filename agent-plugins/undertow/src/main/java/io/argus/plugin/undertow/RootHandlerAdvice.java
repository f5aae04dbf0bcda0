package io.argus.plugin.undertow;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
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
 * traced exchange only (lowest bit of the start time), the span is made current on this thread until
 * the handler returns.
 *
 * <p>Untraced exchanges allocate nothing: a field read, a nanoTime, a bit test.
 */
public final class RootHandlerAdvice {

    private RootHandlerAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.Argument(1) HttpServerExchange exchange,
                               @Advice.Local("argusAttached") boolean attached) {
        long start = exchange.getRequestStartTime();
        if (start == -1L) {
            Connectors.setRequestStartTime(exchange);
            start = exchange.getRequestStartTime();
        }
        if (start == -1L || (start & 1L) == 0) {
            return null;
        }
        ActiveSpan span = Argus.unbind(exchange);
        if (span == null) {
            return null;
        }
        Argus.bind(exchange, span);
        attached = true;
        return Argus.attachContext(span);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter Object previous, @Advice.Local("argusAttached") boolean attached) {
        if (attached) {
            Argus.restoreContext(previous);
        }
    }
}
