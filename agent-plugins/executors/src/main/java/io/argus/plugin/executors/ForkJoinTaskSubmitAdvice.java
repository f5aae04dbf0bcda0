package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.ForkJoinPool;

/**
 * {@code ForkJoinPool.execute/submit/invoke/externalSubmit/lazySubmit(ForkJoinTask)}: the task runs
 * with the submitter's context; not on the virtual-thread scheduler (see {@link ForkJoinRunnableAdvice}).
 */
public final class ForkJoinTaskSubmitAdvice {

    private ForkJoinTaskSubmitAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This ForkJoinPool pool, @Advice.Argument(0) Object task) {
        if (TraceContext.current() != null
                && !pool.getFactory().getClass().getName().startsWith("java.lang.VirtualThread")) {
            TraceContext.carry(task);
        }
    }
}
