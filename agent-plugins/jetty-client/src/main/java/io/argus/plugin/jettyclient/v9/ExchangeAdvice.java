package io.argus.plugin.jettyclient.v9;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.plugin.jettyclient.JettyClientCalls;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.HttpRequest;

/**
 * Inlined at the end of Jetty 9.4's {@code HttpExchange(HttpDestination, HttpRequest, List)}
 * constructor: a request is being sent, on the sending thread, and its headers are not serialized
 * yet. The start time (and, if the thread has a sampled span, a new client span) is kept on the
 * request, in fields the agent gave {@code HttpRequest} (no allocation, no lock). Traced: the span's
 * {@code traceparent} (and {@code tracestate}, or its removal) is put in the request's headers,
 * replacing any that the application (e.g. a proxy copying an inbound request) set.
 * {@link CompleteAdvice} ends the call.
 */
public final class ExchangeAdvice {

    private ExchangeAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(1) HttpRequest request) {
        long startNanos = System.nanoTime();
        if (request == null) {
            return;
        }
        ActiveSpan span = null;
        if (TraceContext.current() != null) {
            // the URL string only for a traced request
            span = ClientCalls.start(request.getMethod(), request.getHost(), request.getPort(),
                    String.valueOf(request.getURI()));
        }
        JettyClientCalls.sent(request, span, startNanos, RequestHeaders.INSTANCE);
    }
}
