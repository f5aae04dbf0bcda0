package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * {@code ThreadPoolExecutor.runWorker(Worker)}, once per worker thread before its first task, and Jetty's
 * {@code QueuedThreadPool.runJob(Runnable)}, before each job: a worker started from a traced thread
 * inherited that context through {@code Thread.start}; it is dropped here so that only wrapped tasks
 * run with a context (Jetty's jobs are never wrapped: its pool is not a JDK executor).
 */
public final class WorkerStartAdvice {

    private WorkerStartAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter() {
        TraceContext.restore(null);
    }
}
