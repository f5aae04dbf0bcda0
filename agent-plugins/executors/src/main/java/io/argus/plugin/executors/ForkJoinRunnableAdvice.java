package io.argus.plugin.executors;

import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.ForkJoinTask;

/**
 * {@code ForkJoinPool.execute/submit(Runnable...)}: a {@code ForkJoinTask} that is also a
 * {@code Runnable} (e.g. {@code CompletableFuture}'s async tasks) must keep its type, so its
 * context is bound to it; any other runnable is wrapped.
 */
public final class ForkJoinRunnableAdvice {

    private ForkJoinRunnableAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
        if (task instanceof ForkJoinTask) {
            Argus.bindContext(task);
        } else {
            task = Argus.wrap(task);
        }
    }
}
