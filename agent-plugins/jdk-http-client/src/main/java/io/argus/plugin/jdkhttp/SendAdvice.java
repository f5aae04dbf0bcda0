package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import net.bytebuddy.asm.Advice;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * Inlined into {@code jdk.internal.net.http.HttpClientImpl#send(HttpRequest, BodyHandler)}: one
 * synchronous call, from entry until {@code send} returns the response (or throws).
 *
 * <p>Untraced (no sampled span on this thread): the start time lives in an advice local, the
 * metric is recorded with values the request already holds ({@code method()}, the URI's host), and
 * nothing is allocated here. Traced: a client span is started and the request argument is replaced
 * by one that carries the span's context ({@link ClientRequests}).
 */
public final class SendAdvice {

    private SendAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Argument(value = 0, readOnly = false) HttpRequest request,
                                   @Advice.Local("argusStartNanos") long startNanos) {
        startNanos = System.nanoTime();
        if (request == null) {
            return null;
        }
        ActiveSpan span = ClientRequests.start(request, startNanos);
        if (span != null) {
            request = ClientRequests.withContext(request, span);
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
        ClientCalls.end(span, startNanos, request.method(), request.uri().getHost(),
                response != null ? response.statusCode() : 0, thrown);
    }
}
