package io.argus.plugin.apachehttpclient.v5;

import io.argus.bridge.ActiveSpan;
import io.argus.plugin.apachehttpclient.TargetUrl;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.net.URIAuthority;

/**
 * Inlined into {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of HttpClient 5.x's classic
 * {@code InternalHttpClient} and {@code MinimalHttpClient}: the one method every {@code execute(...)}
 * overload of the classic {@code CloseableHttpClient} ends in, once per request.
 *
 * <p>Untraced (no sampled span on this thread): the start time lives in an advice local, and the exit
 * records the metric with values the request and response already hold (method, target host, status
 * code are fields). Nothing is allocated here; the URL string is only built once a span exists.
 *
 * <p>Traced: a client span is started and {@code traceparent} (and {@code tracestate}, or its
 * removal when the trace has none) is set on the request object through {@link RequestHeaders},
 * replacing a value the application set. {@code doExecute}
 * copies the request right after this point (and itself fills in the request's scheme and authority),
 * and redirects copy the original request's headers, so the header reaches every hop. On exit the
 * application's own values of these two headers are put back, so a request object that is executed
 * again, traced or not, never carries a stale trace context.
 *
 * <p>Advice code is copied into the library class: it may use only the bridge, the JDK, HttpClient and
 * the helper {@link RequestHeaders}, no helper methods of this class, no lambdas.
 */
public final class ClassicDoExecuteAdvice {

    private ClassicDoExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) HttpHost target,
                                   @Advice.Argument(1) ClassicHttpRequest request,
                                   @Advice.Local("argusStartNanos") long startNanos,
                                   @Advice.Local("argusUserTraceparent") Header[] userTraceparent,
                                   @Advice.Local("argusUserTracestate") Header[] userTracestate) {
        startNanos = System.nanoTime();
        if (request == null || TraceContext.current() == null) {
            return null;
        }
        String scheme;
        String host = null;
        int port = -1;
        if (target != null) {
            scheme = target.getSchemeName();
            host = target.getHostName();
            port = target.getPort();
        } else {
            scheme = request.getScheme();
            URIAuthority authority = request.getAuthority();
            if (authority != null) {
                host = authority.getHostName();
                port = authority.getPort();
            }
        }
        String url = TargetUrl.of(scheme, host, port, request.getPath());
        ActiveSpan span = ClientCalls.start(request.getMethod(), host, TargetUrl.port(scheme, port), url);
        if (span == null) {
            return null;
        }
        userTraceparent = request.getHeaders("traceparent");
        userTracestate = request.getHeaders("tracestate");
        ClientCalls.inject(span, request, RequestHeaders.INSTANCE);
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) HttpHost target,
                            @Advice.Argument(1) ClassicHttpRequest request,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Local("argusUserTraceparent") Header[] userTraceparent,
                            @Advice.Local("argusUserTracestate") Header[] userTracestate,
                            @Advice.Return CloseableHttpResponse response,
                            @Advice.Thrown Throwable thrown) {
        if (request == null) {
            return;
        }
        if (span != null && userTraceparent != null) {
            RequestHeaders.restore(request, "traceparent", userTraceparent);
            if (userTracestate != null) {
                RequestHeaders.restore(request, "tracestate", userTracestate);
            }
        }
        String host = null;
        if (target != null) {
            host = target.getHostName();
        } else {
            URIAuthority authority = request.getAuthority();
            if (authority != null) {
                host = authority.getHostName();
            }
        }
        ClientCalls.end(span, startNanos, request.getMethod(), host, response != null ? response.getCode() : 0, thrown);
    }
}
