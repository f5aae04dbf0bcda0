package io.argus.plugin.okhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code execute()} (3.x) / {@code run()} (4.x, 5.x) of OkHttp's {@code RealCall$AsyncCall}:
 * the whole asynchronous call on the dispatcher thread, the interceptor chain and the callback
 * ({@code onResponse}/{@code onFailure}) included. The caller's span, bound when the
 * {@code AsyncCall} was created, is made current for that time, so the client span started in the
 * chain is its child, and calls made from the callback belong to the same trace. A call enqueued
 * without a span runs with no current span, whatever the dispatcher thread had: OkHttp starts queued
 * calls from whichever thread finishes another call ({@code Dispatcher.promoteAndExecute()}), so an
 * executor-level context hand-off would give them that call's context. The thread's previous context
 * is restored on exit, so nothing leaks to the next task the dispatcher thread runs.
 *
 * <p>Untraced: one look-up (a miss) in the agent's binding table and two thread-local reads; nothing
 * is allocated.
 */
public final class AsyncCallRunAdvice {

    private AsyncCallRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.This Object asyncCall,
                                   @Advice.Local("argusPrevious") Object previous) {
        ActiveSpan context = Argus.unbind(asyncCall);
        previous = Argus.attachContext(context);
        return context;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Local("argusPrevious") Object previous) {
        Argus.restoreContext(previous);
    }
}
