package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.ObjectField;
import net.bytebuddy.asm.Advice;

/** {@code Thread.start()}: the new thread runs with the starting thread's context (see {@link ThreadRunAdvice}). */
public final class ThreadStartAdvice {

    private ThreadStartAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object thread) {
        Object context = TraceContext.current();
        if (context != null) {
            ObjectField.named(ExecutorsPlugin.CONTEXT_FIELD).set(thread, context);
        }
    }
}
