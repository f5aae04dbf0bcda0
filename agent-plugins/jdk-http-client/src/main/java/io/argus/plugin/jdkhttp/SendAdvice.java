package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Inlined into {@code jdk.internal.net.http.HttpClientImpl#send(HttpRequest, BodyHandler)}: one
 * synchronous call, from entry until {@code send} returns the response (or throws).
 *
 * <p>Untraced (no sampled span on this thread): the start time lives in an advice local, the
 * metric is recorded with values the request already holds ({@code method()}, the URI's host), and
 * nothing is allocated here. The URL string for the span is only built once a span exists.
 *
 * <p>Traced: a client span is started, and the request argument is replaced by a copy that carries
 * {@code traceparent} (and {@code tracestate} when the trace has one). {@code HttpRequest} is
 * immutable and the JDK copies its headers into its own internal request right after this point,
 * so a rebuilt request is the one way to add a header that uses public API only and survives
 * redirects and retries (the JDK carries user headers over to them). The copy keeps the method,
 * body publisher, headers, timeout, version and expect-continue flag of the user's request; the
 * user's object is never modified. Should the copy fail, the user's request goes out unchanged.
 *
 * <p>Advice code is copied into the JDK class: it may use only the bridge and the JDK, no helper
 * methods of this class, no lambdas.
 */
public final class SendAdvice {

    private SendAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(value = 0, readOnly = false) HttpRequest request,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        startNanos = System.nanoTime();
        if (request == null || Argus.currentContext() == null) {
            return null;
        }
        URI uri = request.uri();
        int port = uri.getPort();
        if (port < 0) {
            port = "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        }
        String url;
        if (uri.getRawUserInfo() == null && uri.getRawFragment() == null) {
            url = uri.toString();
        } else {
            // never put credentials into a span
            StringBuilder b = new StringBuilder(64).append(uri.getScheme()).append("://").append(uri.getHost());
            if (uri.getPort() >= 0) {
                b.append(':').append(uri.getPort());
            }
            if (uri.getRawPath() != null) {
                b.append(uri.getRawPath());
            }
            if (uri.getRawQuery() != null) {
                b.append('?').append(uri.getRawQuery());
            }
            url = b.toString();
        }
        ActiveSpan span = Argus.clientStart(request.method(), uri.getHost(), port, url);
        if (span == null) {
            return null;
        }
        try {
            HttpRequest.Builder copy = HttpRequest.newBuilder(uri).expectContinue(request.expectContinue());
            Optional<Duration> timeout = request.timeout();
            if (timeout.isPresent()) {
                copy.timeout(timeout.get());
            }
            Optional<HttpClient.Version> version = request.version();
            if (version.isPresent()) {
                copy.version(version.get());
            }
            for (Map.Entry<String, List<String>> header : request.headers().map().entrySet()) {
                String name = header.getKey();
                if (name.equalsIgnoreCase("traceparent") || name.equalsIgnoreCase("tracestate")) {
                    continue;
                }
                for (String value : header.getValue()) {
                    copy.header(name, value);
                }
            }
            copy.header("traceparent", span.traceparent());
            String tracestate = span.tracestate();
            if (tracestate != null) {
                copy.header("tracestate", tracestate);
            }
            String method = request.method();
            Optional<HttpRequest.BodyPublisher> body = request.bodyPublisher();
            if (body.isPresent()) {
                copy.method(method, body.get());
            } else if ("GET".equals(method)) {
                copy.GET();
            } else if ("DELETE".equals(method)) {
                copy.DELETE();
            } else {
                copy.method(method, HttpRequest.BodyPublishers.noBody());
            }
            request = copy.build();
        } catch (RuntimeException unsupported) {
            // the user's request goes out as it is, without trace headers
        }
        return span;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Argument(0) HttpRequest request,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Return HttpResponse<?> response,
                            @Advice.Thrown Throwable thrown) {
        if (request == null) {
            return;
        }
        Argus.clientEnd(span, startNanos, request.method(), request.uri().getHost(),
                response != null ? response.statusCode() : 0, thrown);
    }
}
