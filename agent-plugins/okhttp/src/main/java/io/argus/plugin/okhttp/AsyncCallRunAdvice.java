package io.argus.plugin.okhttp;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;
import okhttp3.Callback;

/**
 * Inlined into {@code execute()} (3.x) / {@code run()} (4.x, 5.x) of OkHttp's {@code RealCall$AsyncCall}:
 * the whole asynchronous call on the dispatcher thread, the interceptor chain and the callback
 * ({@code onResponse}/{@code onFailure}) included. The caller's context, carried by the
 * {@link ContextCallback} that {@link EnqueueAdvice} put in place of the application's callback, is made current for
 * that time, so the client span started in the chain is its child, and calls made from the callback
 * belong to the same trace. The thread's previous context is restored on exit, so nothing leaks to
 * the next task the dispatcher thread runs.
 *
 * <p>Untraced: the callback field is read and is not a {@code ContextCallback} (one type check), then one thread-local
 * read finds no current context, and nothing else happens: no lock, no allocation. A context that is
 * current anyway is cleared for the call: OkHttp starts queued calls from whichever thread finishes
 * another call ({@code Dispatcher.promoteAndExecute()}), so an executor-level context hand-off (the
 * executors plugin) would give an untraced call that call's context.
 */
public final class AsyncCallRunAdvice {

    private AsyncCallRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static boolean enter(@Advice.FieldValue("responseCallback") Callback callback,
                                @Advice.Local("argusPrevious") Object previous) {
        Object context = callback instanceof ContextCallback ? ((ContextCallback) callback).context : null;
        if (context == null && TraceContext.current() == null) {
            return false;
        }
        previous = TraceContext.attach(context);
        return true;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter boolean attached, @Advice.Local("argusPrevious") Object previous) {
        if (attached) {
            TraceContext.restore(previous);
        }
    }
}
