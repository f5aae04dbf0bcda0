package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/** {@code ForkJoinPool.execute/submit/invoke/externalSubmit/lazySubmit(ForkJoinTask)}: the task runs with the submitter's context. */
public final class ForkJoinTaskSubmitAdvice {

    private ForkJoinTaskSubmitAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) Object task) {
        TraceContext.carry(task);
    }
}
