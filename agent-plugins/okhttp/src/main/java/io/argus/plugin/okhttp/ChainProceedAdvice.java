package io.argus.plugin.okhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Inlined into {@code okhttp3.internal.http.RealInterceptorChain#proceed(Request)}; acts only on the
 * chain with {@code index == 0}, which {@code RealCall.getResponseWithInterceptorChain()} creates and
 * proceeds exactly once per call, synchronous or asynchronous. Every other {@code proceed} (one per
 * interceptor) costs a field read and a branch.
 *
 * <p>Untraced (no sampled span on this thread): the start time lives in an advice local, and the exit
 * records the metric with values the request and response already hold ({@code method()},
 * {@code url().host()} and {@code code()} are field reads). Nothing is allocated here; the URL string
 * is only built once a span exists.
 *
 * <p>Traced: a client span is started, and the argument is replaced by a copy of the request that
 * carries {@code traceparent} (and {@code tracestate} when the trace has one; an application's own
 * values are replaced). That copy is what the application's interceptors, the retry/redirect
 * interceptor (which copies it onto follow-ups), the network interceptors and finally the wire see. The
 * application's {@code Request} object and {@code Call.request()} stay as they were.
 *
 * <p>Exceptions from the chain propagate unchanged; the call is recorded with status 0 and the
 * exception. The traced path's URL and request copy are built by the helper {@link TracedRequests}.
 */
public final class ChainProceedAdvice {

    private ChainProceedAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.FieldValue("index") int index,
                                   @Advice.Argument(value = 0, readOnly = false) Request request,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        if (index != 0) {
            return null;
        }
        startNanos = System.nanoTime();
        if (request == null || TraceContext.current() == null) {
            return null;
        }
        HttpUrl url = request.url();
        ActiveSpan span = ClientCalls.start(request.method(), url.host(), url.port(), TracedRequests.url(url), startNanos);
        if (span != null) {
            request = TracedRequests.withContext(request, span);
        }
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.FieldValue("index") int index,
                            @Advice.Argument(0) Request request,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Return Response response,
                            @Advice.Thrown Throwable thrown) {
        if (index != 0 || request == null) {
            return;
        }
        ClientCalls.end(span, startNanos, request.method(), request.url().host(),
                response != null ? response.code() : 0, thrown);
    }
}
