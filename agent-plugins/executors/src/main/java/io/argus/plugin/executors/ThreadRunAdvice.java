package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * {@code Thread.run()}, which runs the thread's {@code Runnable}, and {@code VirtualThread.run(Runnable)},
 * which runs a virtual thread's task on the virtual thread (already mounted: its thread locals, not
 * the carrier's): attaches the context left in {@code start()} for the run. Run by the thread
 * itself, that is its whole life, so the context lapses once its span has ended
 * ({@link TraceContext#attachInherited}). A subclass that overrides {@code run()} without calling
 * it gets no context (and the value is dropped with the thread).
 */
public final class ThreadRunAdvice {

    private ThreadRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object thread,
                             @Advice.Local("argusContext") Object context,
                             @Advice.Local("argusPrevious") Object previous) {
        context = TraceContext.takeCarried(thread);
        if (context != null) {
            previous = thread == Thread.currentThread()
                    ? TraceContext.attachInherited(context) : TraceContext.attach(context);
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
