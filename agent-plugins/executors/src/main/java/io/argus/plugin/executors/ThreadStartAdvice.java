package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * {@code Thread.start()}, and {@code VirtualThread.start(ThreadContainer)}: the new thread runs with
 * the starting thread's context (see {@link ThreadRunAdvice}).
 */
public final class ThreadStartAdvice {

    private ThreadStartAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object thread) {
        TraceContext.carry(thread);
    }
}
