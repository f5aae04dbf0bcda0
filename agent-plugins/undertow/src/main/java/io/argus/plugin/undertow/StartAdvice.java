package io.argus.plugin.undertow;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.server.ServerCalls;
import io.undertow.server.HttpServerExchange;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code HttpServerExchange#setRequestStartTime(long)}, which runs once per exchange, as
 * soon as the request head is parsed (see {@link UndertowPlugin}).
 *
 * <p>Starts the request; the core reads the trace headers through {@link ExchangeHeaders}. The span is
 * not left current here, since the I/O thread may go on to reject the request;
 * {@link RootHandlerAdvice} makes it current while handlers run. A traced span is kept on the
 * exchange ({@link UndertowFields#EXCHANGE_SPAN}).
 */
public final class StartAdvice {

    private StartAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This HttpServerExchange exchange, @Advice.Argument(0) long startNanos) {
        if (startNanos == -1L) {
            return;
        }
        ActiveSpan span = ServerCalls.start(exchange.getRequestMethod().toString(), UndertowFields.path(exchange),
                exchange, ExchangeHeaders.INSTANCE);
        if (span != null) {
            TraceContext.detach(span);
            UndertowFields.EXCHANGE_SPAN.set(exchange, span);
        }
    }
}
