package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;

/**
 * {@code ThreadPoolExecutor.execute(Runnable)}: the task runs with the submitter's context. A
 * {@code FutureTask} (what {@code submit} hands in) already carries it inside, so it stays as it
 * is: {@code afterExecute}, the queue and {@code shutdownNow()} keep seeing the same object.
 * A task the pool's queue orders ({@code Comparable} for a priority queue, {@code Delayed}) is not
 * wrapped either: the queue casts it, and a wrapper would break the pool (Druid's
 * PrioritizedExecutorService); such tasks run without the submitter's context.
 * Untraced: an instanceof check and a thread-local read, no allocation.
 */
public final class PoolExecuteAdvice {

    private PoolExecuteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Runnable task) {
        if (!(task instanceof FutureTask) && !(task instanceof Comparable) && !(task instanceof Delayed)) {
            task = TraceContext.wrap(task);
        }
    }
}
