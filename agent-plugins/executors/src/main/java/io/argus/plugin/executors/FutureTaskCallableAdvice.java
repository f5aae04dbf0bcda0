package io.argus.plugin.executors;

import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

import java.util.concurrent.Callable;

/**
 * {@code new FutureTask(Callable)}: what {@code submit}, {@code invokeAll}, {@code invokeAny} and
 * {@code schedule} of the JDK's executors create. The callable inside runs with the creator's context.
 */
public final class FutureTaskCallableAdvice {

    private FutureTaskCallableAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(value = 0, readOnly = false) Callable<?> callable) {
        callable = TraceContext.wrap(callable);
    }
}
