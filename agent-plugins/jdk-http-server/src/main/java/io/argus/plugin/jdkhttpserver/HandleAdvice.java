package io.argus.plugin.jdkhttpserver;

import com.sun.net.httpserver.HttpExchange;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code LinkHandler.handle(HttpExchange)}: the span starts before the server's own
 * filters and the application's handler run, and ends when they return. The status is what the
 * handler sent; a handler that sent nothing counts as a 500.
 */
public final class HandleAdvice {

    private HandleAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) HttpExchange exchange,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        startNanos = System.nanoTime();
        return ServerCalls.start(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), exchange,
                ExchangeHeaders.INSTANCE);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) HttpExchange exchange, @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos, @Advice.Thrown Throwable thrown) {
        int status = exchange.getResponseCode();
        ServerCalls.end(span, startNanos, exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                status > 0 ? status : 500, thrown);
    }
}
