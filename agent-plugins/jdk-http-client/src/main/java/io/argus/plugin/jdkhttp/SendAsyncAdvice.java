package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Inlined into the private {@code jdk.internal.net.http.HttpClientImpl#sendAsync(HttpRequest,
 * BodyHandler, PushPromiseHandler, Executor)}, the method every request goes through. A
 * {@code null} executor means the caller is {@code send}, which {@link SendAdvice} measures: this
 * advice then does nothing at all.
 *
 * <p>For {@code sendAsync}: the same span start and header injection as {@link SendAdvice} (advice
 * is copied into the JDK class and cannot call shared helpers, hence the repeated code), and the
 * call is recorded when the returned future completes ({@link Argus#clientEndOnCompletion}), which
 * costs one small callback object per call, traced or not.
 */
public final class SendAsyncAdvice {

    private SendAsyncAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(value = 0, readOnly = false) HttpRequest request,
                                   @Advice.Argument(3) Executor exchangeExecutor,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        startNanos = System.nanoTime();
        if (exchangeExecutor == null || request == null || Argus.currentContext() == null) {
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
                            @Advice.Argument(3) Executor exchangeExecutor,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Return Object future,
                            @Advice.Thrown Throwable thrown) {
        if (exchangeExecutor == null || request == null) {
            return;
        }
        if (thrown != null) {
            Argus.clientEnd(span, startNanos, request.method(), request.uri().getHost(), 0, thrown);
        } else {
            Argus.clientEndOnCompletion(future, span, startNanos, request.method(), request.uri().getHost());
        }
    }
}
