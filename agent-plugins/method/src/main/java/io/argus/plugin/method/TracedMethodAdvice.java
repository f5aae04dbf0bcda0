package io.argus.plugin.method;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.context.TraceContext;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into every traced method. The span name is a constant of the instrumented class
 * ({@code #t.#m}: the class's binary name, a dot, the method name), so an untraced call allocates
 * nothing: it costs {@link TraceContext#startInternal}'s look at the thread's context and the sampler.
 * A throwable of the method is recorded on the span and then rethrown unchanged by ByteBuddy.
 */
public final class TracedMethodAdvice {

    private TracedMethodAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static ActiveSpan enter(@Advice.Origin("#t.#m") String name) {
        return TraceContext.startInternal(name);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter ActiveSpan span, @Advice.Thrown Throwable thrown) {
        if (span != null) {
            TraceContext.endInternal(span, thrown);
        }
    }
}
