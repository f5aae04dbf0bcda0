package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/** {@code new FutureTask(Runnable, result)}: as {@link FutureTaskCallableAdvice}, for runnables. */
public final class FutureTaskRunnableAdvice {

    private FutureTaskRunnableAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
        task = TraceContext.wrap(task);
    }
}
