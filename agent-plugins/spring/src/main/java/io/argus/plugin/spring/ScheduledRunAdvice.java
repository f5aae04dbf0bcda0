package io.argus.plugin.spring;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.lang.reflect.Method;

/**
 * Inlined into {@code ScheduledMethodRunnable.run()}: each run of a {@code @Scheduled} method is a
 * root of its own (sampled by the rate), never a child of whatever context the scheduler's thread
 * holds (a pool thread may carry one from the request that started it, or that scheduled the task).
 */
public final class ScheduledRunAdvice {

    private ScheduledRunAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.This Object runnable, @Advice.FieldValue("target") Object target,
                                   @Advice.FieldValue("method") Method method,
                                   @Advice.Local("argusPrevious") Object previous) {
        String name = ScheduledNames.of(runnable, target, method);
        previous = TraceContext.attach(null);
        return TraceContext.startInternal(name);
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    public static void exit(@Advice.Enter ActiveSpan span, @Advice.Local("argusPrevious") Object previous,
                            @Advice.Thrown Throwable thrown) {
        TraceContext.endInternal(span, thrown);
        TraceContext.restore(previous);
    }
}
