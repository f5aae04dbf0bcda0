package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * {@code ThreadPoolExecutor.runWorker(Worker)}, once per worker thread before its first task:
 * a worker started from a traced thread inherited that context through {@code Thread.start};
 * it is dropped here so that only wrapped tasks run with a context.
 */
public final class WorkerStartAdvice {

    private WorkerStartAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
        TraceContext.restore(null);
    }
}
