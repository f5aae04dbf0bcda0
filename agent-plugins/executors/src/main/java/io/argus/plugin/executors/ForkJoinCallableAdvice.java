package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.Callable;
import java.util.concurrent.ForkJoinPool;

/**
 * {@code ForkJoinPool.submit(Callable)}: the callable runs with the submitter's context; not on the
 * virtual-thread scheduler (see {@link ForkJoinRunnableAdvice}).
 */
public final class ForkJoinCallableAdvice {

    private ForkJoinCallableAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This ForkJoinPool pool,
                             @Advice.Argument(value = 0, readOnly = false) Callable<?> task) {
        if (TraceContext.current() != null
                && !pool.getFactory().getClass().getName().startsWith("java.lang.VirtualThread")) {
            task = TraceContext.wrap(task);
        }
    }
}
