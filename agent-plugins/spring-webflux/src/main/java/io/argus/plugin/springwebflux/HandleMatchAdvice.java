package io.argus.plugin.springwebflux;

import net.bytebuddy.asm.Advice;
import org.springframework.web.server.ServerWebExchange;

/**
 * Inlined into WebFlux's {@code RequestMappingInfoHandlerMapping.handleMatch(info, handlerMethod, exchange)}: on
 * return the controller method's pattern is in the exchange's attributes.
 */
public final class HandleMatchAdvice {

    private HandleMatchAdvice() {
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Argument(2) ServerWebExchange exchange) {
        WebFluxRoutes.report(exchange);
    }
}
