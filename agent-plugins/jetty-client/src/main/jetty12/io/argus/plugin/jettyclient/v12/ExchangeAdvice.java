package io.argus.plugin.jettyclient.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.transport.HttpRequest;
import org.eclipse.jetty.http.HttpFields;

/**
 * Inlined at the end of Jetty 12's {@code HttpExchange(HttpDestination, HttpRequest,
 * ResponseListeners)} constructor (the two-argument one delegates to it): a request is being sent,
 * on the sending thread, and its headers are not serialized yet. Same as the 9.4 advice: the start
 * time (and span, if the thread has a sampled span) go to the agent under the request's identity
 * ({@code Argus.clientPending}, allocation-free); a traced request gets
 * {@code traceparent}/{@code tracestate} put in its headers ({@code HttpRequest#getHeaders()} is the
 * request's own {@code HttpFields.Mutable}). Compiled against the oldest supported Jetty 12 API.
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
        if (Argus.currentContext() != null) {
            span = Argus.clientStart(request.getMethod(), request.getHost(), request.getPort(),
                    String.valueOf(request.getURI()));
        }
        // remembered first: should the headers fail, the span still ends with the request
        Argus.clientPending(request, span, startNanos);
        if (span == null) {
            return;
        }
        HttpFields fields = request.getHeaders();
        if (fields instanceof HttpFields.Mutable) {
            HttpFields.Mutable headers = (HttpFields.Mutable) fields;
            headers.put("traceparent", span.traceparent());
            String tracestate = span.tracestate();
            if (tracestate != null) {
                headers.put("tracestate", tracestate);
            } else {
                headers.remove("tracestate");
            }
        }
    }
}
