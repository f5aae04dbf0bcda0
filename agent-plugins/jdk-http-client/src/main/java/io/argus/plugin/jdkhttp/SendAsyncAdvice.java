package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

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
 * {@code null} executor means the caller is {@code send}, which {@link SendAdvice} already
 * measures: this advice then does nothing at all.
 *
 * <p>For {@code sendAsync} it currently only propagates the trace: when the calling thread has a
 * sampled span, the request is replaced by a copy carrying that span's {@code traceparent} (and
 * {@code tracestate}), so the downstream service joins the trace as a child of the calling span.
 * Untraced calls cost one thread-local read and allocate nothing.
 *
 * <p>It records no client span and no client metric yet. Both must be finished when the returned
 * future completes, which needs a completion callback; advice cannot define one (it may reference
 * only the bridge and the JDK, and the bridge offers no completion hook). README.md describes the
 * bridge method that would close this gap.
 */
public final class SendAsyncAdvice {

    private SendAsyncAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) HttpRequest request,
                             @Advice.Argument(3) Executor exchangeExecutor) {
        if (exchangeExecutor == null || request == null) {
            return;
        }
        Object context = Argus.currentContext();
        if (!(context instanceof ActiveSpan)) {
            return;
        }
        ActiveSpan parent = (ActiveSpan) context;
        try {
            HttpRequest.Builder copy = HttpRequest.newBuilder(request.uri()).expectContinue(request.expectContinue());
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
            copy.header("traceparent", parent.traceparent());
            String tracestate = parent.tracestate();
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
            // the user's request goes out as it is
        }
    }
}
