package io.argus.plugin.executors;

import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

/**
 * {@code ForkJoinTask.doExec()}, where every fork/join task runs: attaches the context bound to
 * the task, if any, and restores the thread's own afterwards. While no context is bound anywhere
 * this is one volatile read.
 */
public final class DoExecAdvice {

    private DoExecAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object task,
                             @Advice.Local("argusContext") Object context,
                             @Advice.Local("argusPrevious") Object previous) {
        context = Argus.takeContext(task);
        if (context != null) {
            previous = Argus.attachContext(context);
        }
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Local("argusContext") Object context,
                            @Advice.Local("argusPrevious") Object previous) {
        if (context != null) {
            Argus.restoreContext(previous);
        }
    }
}
