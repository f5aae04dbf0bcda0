package io.argus.plugin.executors;

import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.FutureTask;

/**
 * {@code ThreadPoolExecutor.execute(Runnable)}: the task runs with the submitter's context. A
 * {@code FutureTask} (what {@code submit} hands in) already carries it inside, so it stays as it
 * is: {@code afterExecute}, the queue and {@code shutdownNow()} keep seeing the same object.
 * Untraced: an instanceof check and a thread-local read, no allocation.
 */
public final class PoolExecuteAdvice {

    private PoolExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
        if (!(task instanceof FutureTask)) {
            task = Argus.wrap(task);
        }
    }
}
