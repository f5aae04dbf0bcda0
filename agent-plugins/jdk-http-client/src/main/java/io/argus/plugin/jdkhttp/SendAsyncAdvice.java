package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import net.bytebuddy.asm.Advice;

import java.net.http.HttpRequest;
import java.util.concurrent.Executor;

/**
 * Inlined into the private {@code jdk.internal.net.http.HttpClientImpl#sendAsync(HttpRequest,
 * BodyHandler, PushPromiseHandler, Executor)}, the method every request goes through. A
 * {@code null} executor means the caller is {@code send}, which {@link SendAdvice} measures: this
 * advice then does nothing at all.
 *
 * <p>For {@code sendAsync}: the same span start and header injection as {@link SendAdvice}, and the
 * call is recorded when the returned future completes ({@link ClientCalls#endOnCompletion}), which
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
        if (exchangeExecutor == null || request == null) {
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
                            @Advice.Argument(3) Executor exchangeExecutor,
                            @Advice.Enter ActiveSpan span,
                            @Advice.Local("argusStartNanos") long startNanos,
                            @Advice.Return Object future,
                            @Advice.Thrown Throwable thrown) {
        if (exchangeExecutor == null || request == null) {
            return;
        }
        if (thrown != null) {
            ClientCalls.end(span, startNanos, request.method(), request.uri().getHost(), 0, thrown);
        } else {
            ClientCalls.endOnCompletion(future, span, startNanos, request.method(), request.uri().getHost());
        }
    }
}
