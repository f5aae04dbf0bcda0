package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.ObjectField;
import net.bytebuddy.asm.Advice;

/** {@code ForkJoinTask.fork()}: the forked task runs with the forking thread's context. */
public final class ForkAdvice {

    private ForkAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object task) {
        Object context = TraceContext.current();
        if (context != null) {
            ObjectField.named(ExecutorsPlugin.CONTEXT_FIELD).set(task, context);
        }
    }
}
