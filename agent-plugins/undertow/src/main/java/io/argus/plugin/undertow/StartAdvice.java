package io.argus.plugin.undertow;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.HttpString;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code HttpServerExchange#setRequestStartTime(long)}, which runs once per exchange, as
 * soon as the request head is parsed (see {@link UndertowPlugin}).
 *
 * <p>Reads the inbound trace headers in one pass over the request headers (Undertow's
 * {@code HeaderMap.getFirst(String)} would allocate a byte array per look-up), then calls
 * {@code Argus.serverStart}. The span is not left current here, since the I/O thread may go on to
 * reject the request; {@link RootHandlerAdvice} makes it current while handlers run. A traced span is
 * kept with {@code Argus.bind(exchange, span)}, and the lowest bit of the exchange's
 * {@code requestStartTime} (nanoseconds) is set to 1 to say so, 0 otherwise: the end of an untraced
 * request then needs no look-up at all. The recorded start time moves by at most 1 ns.
 *
 * <p>Header precedence: traceparent (with tracestate), else b3, else X-B3-TraceId/SpanId/Sampled.
 */
public final class StartAdvice {

    private StartAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This HttpServerExchange exchange,
                            @Advice.Argument(0) long startNanos,
                            @Advice.FieldValue(value = "requestStartTime", readOnly = false) long recorded) {
        if (startNanos == -1L) {
            return;
        }
        String traceparent = null;
        String tracestate = null;
        String b3 = null;
        String b3TraceId = null;
        String b3SpanId = null;
        String b3Sampled = null;
        HeaderMap headers = exchange.getRequestHeaders();
        for (long cookie = headers.fastIterateNonEmpty(); cookie != -1L; cookie = headers.fiNextNonEmpty(cookie)) {
            HeaderValues values = headers.fiCurrent(cookie);
            HttpString name = values.getHeaderName();
            int length = name.length();
            if (length == 11 && name.equalToString("traceparent")) {
                traceparent = values.getFirst();
            } else if (length == 10 && name.equalToString("tracestate")) {
                tracestate = values.getFirst();
            } else if (length == 2 && name.equalToString("b3")) {
                b3 = values.getFirst();
            } else if (length == 12 && name.equalToString("X-B3-TraceId")) {
                b3TraceId = values.getFirst();
            } else if (length == 11 && name.equalToString("X-B3-SpanId")) {
                b3SpanId = values.getFirst();
            } else if (length == 12 && name.equalToString("X-B3-Sampled")) {
                b3Sampled = values.getFirst();
            }
        }
        if (traceparent != null) {
            b3 = null;
        } else {
            tracestate = null;
            if (b3 == null && b3TraceId != null) {
                b3 = Argus.b3Multi(b3TraceId, b3SpanId, b3Sampled);
            }
        }
        String path = exchange.isHostIncludedInRequestURI() ? exchange.getRequestPath() : exchange.getRequestURI();
        ActiveSpan span = Argus.serverStart(exchange.getRequestMethod().toString(), path, traceparent, tracestate, b3);
        if (span == null) {
            recorded = startNanos & ~1L;
        } else {
            recorded = startNanos | 1L;
            Argus.detach(span);
            Argus.bind(exchange, span);
        }
    }
}
