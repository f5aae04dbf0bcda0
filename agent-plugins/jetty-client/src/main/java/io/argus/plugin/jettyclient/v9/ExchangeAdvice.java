package io.argus.plugin.jettyclient.v9;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.client.HttpRequest;
import org.eclipse.jetty.http.HttpFields;

/**
 * Inlined at the end of Jetty 9.4's {@code HttpExchange(HttpDestination, HttpRequest, List)}
 * constructor: a request is being sent, on the sending thread, and its headers are not serialized
 * yet. The start time (and, if the thread has a sampled span, a new client span) is handed to the
 * agent under the request's identity ({@code Argus.clientPending}: a slot in a preallocated table,
 * no allocation, no lock). Traced: the span's {@code traceparent} (and {@code tracestate}, or its
 * removal) is put in the request's headers, replacing any that the application (e.g. a proxy
 * copying an inbound request) set. {@link CompleteAdvice} ends the call.
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
        HttpFields headers = request.getHeaders();
        headers.put("traceparent", span.traceparent());
        String tracestate = span.tracestate();
        if (tracestate != null) {
            headers.put("tracestate", tracestate);
        } else {
            headers.remove("tracestate");
        }
    }
}
