package io.argus.plugin.springwebflux;

import net.bytebuddy.asm.Advice;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Inlined into {@code RouterFunctionMapping.setAttributes(attributes, request, handlerFunction)}: on return the
 * matched route's pattern (nested routes' patterns merged) is in the exchange's attributes.
 */
public final class RouterMatchAdvice {

    private RouterMatchAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(1) ServerRequest request) {
        WebFluxRoutes.report(request.exchange());
    }
}
