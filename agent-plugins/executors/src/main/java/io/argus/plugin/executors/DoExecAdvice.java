package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * {@code ForkJoinTask.doExec()}, where every fork/join task runs: attaches the context left on
 * the task, if any, and restores the thread's own afterwards. While no task holds a context this
 * is a field look-up by name and one volatile read.
 */
public final class DoExecAdvice {

    private DoExecAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object task,
                             @Advice.Local("argusContext") Object context,
                             @Advice.Local("argusPrevious") Object previous) {
        context = TraceContext.takeCarried(task);
        if (context != null) {
            previous = TraceContext.attach(context);
        }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Local("argusContext") Object context,
                            @Advice.Local("argusPrevious") Object previous) {
        if (context != null) {
            TraceContext.restore(previous);
        }
    }
}
