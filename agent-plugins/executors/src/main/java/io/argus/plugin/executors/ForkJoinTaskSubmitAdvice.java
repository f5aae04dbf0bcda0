package io.argus.plugin.executors;

import io.argus.bridge.Argus;
import net.bytebuddy.asm.Advice;

/** {@code ForkJoinPool.execute/submit/invoke/externalSubmit/lazySubmit(ForkJoinTask)}: bind the context to the task. */
public final class ForkJoinTaskSubmitAdvice {

    private ForkJoinTaskSubmitAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) Object task) {
        Argus.bindContext(task);
    }
}
