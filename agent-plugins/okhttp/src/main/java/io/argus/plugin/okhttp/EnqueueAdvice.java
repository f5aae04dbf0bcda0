package io.argus.plugin.okhttp;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;
import okhttp3.Callback;

/**
 * Inlined at the start of OkHttp's {@code RealCall.enqueue(Callback)}, on the caller's thread. When
 * the caller has a sampled span, the application's callback is replaced by a {@link ContextCallback}
 * (a helper class in OkHttp's loader) that carries that context and forwards both calls to it
 * unchanged; the {@code AsyncCall} that {@code enqueue} creates keeps it, and
 * {@link AsyncCallRunAdvice} reads the context from it on the dispatcher thread. Untraced callers: one
 * thread-local read, the callback is left as it is, nothing is allocated.
 */
public final class EnqueueAdvice {

    private EnqueueAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Callback callback) {
        if (callback == null || callback instanceof ContextCallback) {
            return;
        }
        Object context = TraceContext.current();
        if (context != null) {
            callback = new ContextCallback(context, callback);
        }
    }
}
