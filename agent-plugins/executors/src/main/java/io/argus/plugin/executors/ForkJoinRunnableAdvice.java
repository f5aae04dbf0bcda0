package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.ForkJoinTask;

/**
 * {@code ForkJoinPool.execute/submit(Runnable...)}: a {@code ForkJoinTask} that is also a
 * {@code Runnable} (e.g. {@code CompletableFuture}'s async tasks) must keep its type, so its
 * context is left on it; any other runnable is wrapped.
 */
public final class ForkJoinRunnableAdvice {

    private ForkJoinRunnableAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
        if (task instanceof ForkJoinTask) {
            TraceContext.carry(task);
        } else {
            task = TraceContext.wrap(task);
        }
    }
}
