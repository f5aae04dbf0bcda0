package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * {@code ForkJoinPool.execute/submit(Runnable...)}: a {@code ForkJoinTask} that is also a
 * {@code Runnable} (e.g. {@code CompletableFuture}'s async tasks) must keep its type, so its
 * context is left on it; any other runnable is wrapped. Not on the virtual-thread scheduler (its
 * threads are made by a factory of {@code java.lang.VirtualThread}): there the task is a virtual
 * thread's continuation, and the virtual thread carries its own context, never its carrier.
 */
public final class ForkJoinRunnableAdvice {

    private ForkJoinRunnableAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This ForkJoinPool pool,
                             @Advice.Argument(value = 0, readOnly = false) Runnable task) {
        if (TraceContext.current() != null
                && !pool.getFactory().getClass().getName().startsWith("java.lang.VirtualThread")) {
            if (task instanceof ForkJoinTask) {
                TraceContext.carry(task);
            } else {
                task = TraceContext.wrap(task);
            }
        }
    }
}
