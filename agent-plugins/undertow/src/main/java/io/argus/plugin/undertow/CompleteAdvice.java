package io.argus.plugin.undertow;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.server.ServerCalls;
import io.undertow.server.DefaultResponseListener;
import io.undertow.server.HttpServerExchange;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code HttpServerExchange#invokeExchangeCompleteListeners()}: the request has been read
 * and the response written, on whichever thread finished last. Undertow sets
 * {@code exchangeCompletionListenersCount} to -1 in the first call, so the body runs once per
 * exchange; the advice runs only while it is not -1. Exchanges that never got a start time
 * (rejected before any handler) are not recorded.
 *
 * <p>Records the final status; a traced exchange takes its span off the exchange and carries the
 * exception that escaped a root handler, if any. Untraced exchanges allocate nothing.
 */
public final class CompleteAdvice {

    private CompleteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This HttpServerExchange exchange,
                             @Advice.FieldValue("exchangeCompletionListenersCount") int listeners,
                             @Advice.FieldValue("requestStartTime") long startNanos) {
        if (listeners < 0 || startNanos == -1L) {
            return;
        }
        ActiveSpan span = UndertowFields.EXCHANGE_SPAN.remove(exchange);
        Throwable error = span == null ? null : exchange.getAttachment(DefaultResponseListener.EXCEPTION);
        ServerCalls.end(span, startNanos, exchange.getRequestMethod().toString(), UndertowFields.path(exchange),
                exchange.getStatusCode(), error);
    }
}
