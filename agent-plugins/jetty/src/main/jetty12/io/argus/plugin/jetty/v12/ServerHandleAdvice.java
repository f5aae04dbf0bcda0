package io.argus.plugin.jetty.v12;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;

/**
 * Inlined into Jetty 12 {@code org.eclipse.jetty.server.Server#handle(Request, Response, Callback)},
 * called once per request by the channel on the handling thread. Starts the span (made current on
 * this thread while the handlers run) and, for a traced request only, parks it in an attribute of
 * the channel's request, where {@link CompleteStreamAdvice} finds it when the response is complete.
 * When this method returns the callback may still be pending (async handling): the span's context is
 * taken off this thread either way. Compiled against the oldest supported Jetty 12 API.
 */
public final class ServerHandleAdvice {

    private ServerHandleAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) Request request) {
        HttpFields headers = request.getHeaders();
        String traceparent = headers.get("traceparent");
        String tracestate = null;
        String b3 = null;
        if (traceparent != null) {
            tracestate = headers.get("tracestate");
        } else {
            b3 = headers.get("b3");
            if (b3 == null) {
                String traceId = headers.get("X-B3-TraceId");
                if (traceId != null) {
                    b3 = Argus.b3Multi(traceId, headers.get("X-B3-SpanId"), headers.get("X-B3-Sampled"));
                }
            }
        }
        ActiveSpan span = Argus.serverStart(request.getMethod(), request.getHttpURI().getPath(), traceparent, tracestate, b3);
        if (span != null) {
            // the channel's own request: customizers may have wrapped the one handed to the server
            Request.unWrap(request).setAttribute("io.argus.jetty.span", span);
        }
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) Request request, @Advice.Enter ActiveSpan span,
                            @Advice.Thrown Throwable thrown) {
        if (span != null) {
            if (thrown != null) {
                // Jetty turns it into an error response; completeStream does not always see it (12.1)
                Request.unWrap(request).setAttribute("io.argus.jetty.error", thrown);
            }
            // no-op if the response already completed on this thread (ending the span restored the context)
            Argus.detach(span);
        }
    }
}
