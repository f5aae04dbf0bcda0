package io.argus.plugin.okhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
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
 * exception. Advice code is copied into OkHttp's class: it may use only the bridge, the JDK and the
 * okhttp3 API, no helper methods of this class, no lambdas.
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
        if (request == null || Argus.currentContext() == null) {
            return null;
        }
        HttpUrl url = request.url();
        String scheme = url.scheme();
        String host = url.host();
        int port = url.port();
        // scheme://host[:port]/path?query: never the user info
        StringBuilder target = new StringBuilder(64).append(scheme).append("://");
        if (host.indexOf(':') >= 0) {
            target.append('[').append(host).append(']');
        } else {
            target.append(host);
        }
        if (port != HttpUrl.defaultPort(scheme)) {
            target.append(':').append(port);
        }
        target.append(url.encodedPath());
        String query = url.encodedQuery();
        if (query != null) {
            target.append('?').append(query);
        }
        ActiveSpan span = Argus.clientStart(request.method(), host, port, target.toString());
        if (span == null) {
            return null;
        }
        try {
            Request.Builder copy = request.newBuilder().header("traceparent", span.traceparent());
            String tracestate = span.tracestate();
            if (tracestate != null) {
                copy.header("tracestate", tracestate);
            } else {
                // it belonged to the application's own traceparent, which was just replaced
                copy.removeHeader("tracestate");
            }
            request = copy.build();
        } catch (RuntimeException refused) {
            // e.g. a tracestate OkHttp does not accept as a header value: the request goes out as it is
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
        Argus.clientEnd(span, startNanos, request.method(), request.url().host(),
                response != null ? response.code() : 0, thrown);
    }
}
