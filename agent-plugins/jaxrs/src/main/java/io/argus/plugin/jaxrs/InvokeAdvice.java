package io.argus.plugin.jaxrs;

import net.bytebuddy.asm.Advice;
import org.glassfish.jersey.server.internal.process.RequestProcessingContext;

/**
 * Inlined into {@code ResourceMethodInvoker.apply(RequestProcessingContext)}: Jersey has matched the
 * resource method and is about to invoke it, on the thread that handles the request. On entry, so
 * that a method that throws (mapped to a 4xx/5xx) keeps its route.
 */
public final class InvokeAdvice {

    private InvokeAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.This Object invoker, @Advice.Argument(0) RequestProcessingContext context) {
        JerseyRoutes.report(invoker, context.request());
    }
}
