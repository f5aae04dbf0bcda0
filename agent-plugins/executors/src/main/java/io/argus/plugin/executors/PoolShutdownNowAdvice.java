package io.argus.plugin.executors;

import io.argus.bridge.context.ContextRunnable;
import net.bytebuddy.asm.Advice;

import java.util.List;

/** {@code ThreadPoolExecutor.shutdownNow()}: hands back the application's own tasks, not their wrappers. */
public final class PoolShutdownNowAdvice {

    private PoolShutdownNowAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Return List<Runnable> tasks) {
        if (tasks != null) {
            for (int i = 0; i < tasks.size(); i++) {
                Runnable task = tasks.get(i);
                if (task instanceof ContextRunnable) {
                    tasks.set(i, ((ContextRunnable) task).task());
                }
            }
        }
    }
}
