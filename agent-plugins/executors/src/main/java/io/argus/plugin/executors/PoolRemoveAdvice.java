package io.argus.plugin.executors;

import io.argus.bridge.context.ContextRunnable;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * {@code ThreadPoolExecutor.remove(Runnable)}: a task given to {@code execute} while traced sits
 * in the queue wrapped; removing the task itself must remove its wrapper. {@code FutureTask}s
 * (also every scheduled task) are never wrapped, so their removal is not slowed down.
 */
public final class PoolRemoveAdvice {

    private PoolRemoveAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This ThreadPoolExecutor pool,
                             @Advice.Argument(value = 0, readOnly = false) Runnable task) {
        if (task != null && !(task instanceof FutureTask) && !(task instanceof ContextRunnable)) {
            for (Runnable queued : pool.getQueue()) {
                if (queued instanceof ContextRunnable && ((ContextRunnable) queued).task() == task) {
                    task = queued;
                    break;
                }
            }
        }
    }
}
