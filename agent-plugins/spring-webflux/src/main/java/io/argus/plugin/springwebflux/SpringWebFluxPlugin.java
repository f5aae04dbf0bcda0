package io.argus.plugin.springwebflux;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Spring WebFlux (Spring Framework 6.x and 7.x) on Reactor Netty: the server request is named by the route template
 * its handler was matched by, for annotated controllers ({@code RequestMappingInfoHandlerMapping.handleMatch}) and
 * functional endpoints ({@code RouterFunctionMapping.setAttributes}). Both leave the pattern in the exchange's
 * {@code HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE}; {@link WebFluxRoutes} hands it to the request's Netty
 * channel, where the {@code netty4-http-server} plugin, which owns the server span, takes it when the response ends.
 */
public final class SpringWebFluxPlugin implements ArgusPlugin {

    static final String ANNOTATED_MAPPING = "org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping";
    static final String ROUTER_MAPPING = "org.springframework.web.reactive.function.server.support.RouterFunctionMapping";
    private static final String P = "io.argus.plugin.springwebflux.";
    private static final String[] HELPERS = {P + "WebFluxRoutes", P + "ReactorNettyChannels"};

    @Override
    public String name() {
        return "spring-webflux";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type(ANNOTATED_MAPPING).helpers(HELPERS)
                .advise(named("handleMatch").and(takesArguments(3)).and(not(isBridge()))
                                .and(takesArgument(2, named("org.springframework.web.server.ServerWebExchange"))),
                        P + "HandleMatchAdvice");
        probes.type(ROUTER_MAPPING).helpers(HELPERS)
                .advise(named("setAttributes").and(takesArguments(3))
                                .and(takesArgument(1, named("org.springframework.web.reactive.function.server.ServerRequest"))),
                        P + "RouterMatchAdvice");
    }
}
