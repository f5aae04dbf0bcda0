package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.ObjectField;
import net.bytebuddy.asm.Advice;

/** {@code ForkJoinPool.execute/submit/invoke/externalSubmit/lazySubmit(ForkJoinTask)}: the task runs with the submitter's context. */
public final class ForkJoinTaskSubmitAdvice {

    private ForkJoinTaskSubmitAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) Object task) {
        Object context = TraceContext.current();
        if (context != null) {
            ObjectField.named(ExecutorsPlugin.CONTEXT_FIELD).set(task, context);
        }
    }
}
