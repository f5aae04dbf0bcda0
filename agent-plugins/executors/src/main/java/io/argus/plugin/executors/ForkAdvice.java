package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/** {@code ForkJoinTask.fork()}: the forked task runs with the forking thread's context. */
public final class ForkAdvice {

    private ForkAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object task) {
        TraceContext.carry(task);
    }
}
