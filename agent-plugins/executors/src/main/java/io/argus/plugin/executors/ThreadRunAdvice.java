package io.argus.plugin.executors;

import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

/**
 * {@code Thread.run()}, which runs the thread's {@code Runnable}: attaches the context bound in
 * {@code start()} for the run. A subclass that overrides {@code run()} without calling it gets
 * no context (and its binding is dropped with the thread).
 */
public final class ThreadRunAdvice {

    private ThreadRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object thread,
                             @Advice.Local("argusContext") Object context,
                             @Advice.Local("argusPrevious") Object previous) {
        context = Argus.takeContext(thread);
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
