package io.argus.plugin.apachehttpclient.v4;

import io.argus.bridge.ActiveSpan;
import io.argus.plugin.apachehttpclient.TargetUrl;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.StatusLine;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpUriRequest;

import java.net.URI;

/**
 * Inlined into {@code doExecute(HttpHost, HttpRequest, HttpContext)} of HttpClient 4.3+'s
 * {@code InternalHttpClient}, {@code MinimalHttpClient} and {@code AbstractHttpClient}: the one method
 * every {@code execute(...)} overload of {@code CloseableHttpClient} ends in, once per request.
 *
 * <p>Untraced (no sampled span on this thread): the start time lives in an advice local, and the exit
 * records the metric with values the request and response already hold (the method of an
 * {@code HttpUriRequest} is a constant, the host a field of the target, the status a field of the
 * status line). Nothing is allocated here; the URL string is only built once a span exists.
 *
 * <p>Traced: a client span is started and {@code traceparent} (and {@code tracestate}, or its
 * removal when the trace has none) is set on the request object itself through
 * {@link RequestHeaders}, replacing a value the application set. HttpClient
 * copies the request's headers into its own wrapper right after this point, and copies the original
 * request's headers onto redirects, so the header reaches every hop. On exit the application's own
 * values of these two headers are put back, so a request object that is executed again, traced or
 * not, never carries a stale trace context.
 *
 * <p>Advice code is copied into the library class: it may use only the bridge, the JDK, HttpClient and
 * the helper {@link RequestHeaders}, no helper methods of this class, no lambdas.
 */
public final class DoExecuteAdvice {

    private DoExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(0) HttpHost target,
                                   @Advice.Argument(1) HttpRequest request,
                                   @Advice.Local("argusStartNanos") long startNanos,
                                   @Advice.Local("argusUserTraceparent") Header[] userTraceparent,
                                   @Advice.Local("argusUserTracestate") Header[] userTracestate) {
        startNanos = System.nanoTime();
        if (request == null || TraceContext.current() == null) {
            return null;
        }
        String method;
        URI uri = null;
        if (request instanceof HttpUriRequest) {
            method = ((HttpUriRequest) request).getMethod();
            uri = ((HttpUriRequest) request).getURI();
        } else {
            method = request.getRequestLine().getMethod();
        }
        String scheme = null;
        String host = null;
        int port = -1;
        if (target != null) {
            scheme = target.getSchemeName();
            host = target.getHostName();
            port = target.getPort();
        } else if (uri != null && uri.isAbsolute()) {
            scheme = uri.getScheme();
            host = uri.getHost();
            port = uri.getPort();
        }
        String pathOrUri;
        if (uri != null) {
            String path = uri.getRawPath();
            pathOrUri = (path == null || path.isEmpty() ? "/" : path) + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
        } else {
            pathOrUri = request.getRequestLine().getUri();
        }
        String url = TargetUrl.of(scheme, host, port, pathOrUri);
        port = TargetUrl.port(scheme, port);
        ActiveSpan span = ClientCalls.start(method, host, port, url);
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
                            @Advice.Argument(1) HttpRequest request,
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
        String method;
        String host = target != null ? target.getHostName() : null;
        if (request instanceof HttpUriRequest) {
            method = ((HttpUriRequest) request).getMethod();
            if (host == null) {
                URI uri = ((HttpUriRequest) request).getURI();
                host = uri != null ? uri.getHost() : null;
            }
        } else {
            method = request.getRequestLine().getMethod();
        }
        int status = 0;
        if (response != null) {
            StatusLine statusLine = response.getStatusLine();
            if (statusLine != null) {
                status = statusLine.getStatusCode();
            }
        }
        ClientCalls.end(span, startNanos, method, host, status, thrown);
    }
}
