package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.Callable;

/** {@code ForkJoinPool.submit(Callable)}: the callable runs with the submitter's context. */
public final class ForkJoinCallableAdvice {

    private ForkJoinCallableAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> task) {
        task = TraceContext.wrap(task);
    }
}
