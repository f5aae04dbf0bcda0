package io.argus.plugin.okhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

/**
 * Inlined at the end of the constructors of OkHttp's {@code RealCall$AsyncCall}, which
 * {@code RealCall.enqueue(Callback)} creates on the caller's thread (after its "Already Executed"
 * check). When the caller has a sampled span, that span is bound to the new {@code AsyncCall} so that
 * {@link AsyncCallRunAdvice} can make it current on the dispatcher thread. Untraced callers: one
 * thread-local read, nothing else.
 */
public final class AsyncCallCreatedAdvice {

    private AsyncCallCreatedAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.This Object asyncCall) {
        Object context = Argus.currentContext();
        if (context instanceof ActiveSpan) {
            Argus.bind(asyncCall, (ActiveSpan) context);
        }
    }
}
