package io.argus.plugin.jettyclient.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.plugin.jettyclient.JettyClientCalls;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.transport.HttpRequest;

/**
 * Inlined at the end of Jetty 12's {@code HttpExchange(HttpDestination, HttpRequest,
 * ResponseListeners)} constructor (the two-argument one delegates to it): a request is being sent,
 * on the sending thread, and its headers are not serialized yet. Same as the 9.4 advice: the start
 * time (and span, if the thread has a sampled span) are kept in fields the agent gave
 * {@code HttpRequest} (no allocation); a traced request gets {@code traceparent}/{@code tracestate}
 * put in its headers. Compiled against the oldest supported Jetty 12 API.
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
