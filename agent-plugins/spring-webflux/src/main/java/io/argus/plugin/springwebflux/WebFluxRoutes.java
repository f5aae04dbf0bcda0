package io.argus.plugin.springwebflux;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;

/**
 * The route template WebFlux matched for a request: the base path ({@code spring.webflux.base-path}, the request's
 * context path) and the pattern, as OpenTelemetry's {@code http.route} has them. A helper class, defined in Spring's
 * class loader.
 *
 * <p>The request ends on whichever thread writes the response's last part, long after the handler was matched on
 * another (an event loop serves many connections meanwhile), so the template is not named on the matching thread:
 * it goes to the request's Netty channel ({@link ReactorNettyChannels}). Other servers (WebFlux on a servlet
 * container) keep their normalised path. With no base path nothing is allocated.
 */
public final class WebFluxRoutes {

    /** {@code HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE} of {@code org.springframework.web.reactive}. */
    static final String BEST_MATCHING_PATTERN = "org.springframework.web.reactive.HandlerMapping.bestMatchingPattern";

    private WebFluxRoutes() {
    }

    public static void report(ServerWebExchange exchange) {
        Object pattern = exchange.getAttribute(BEST_MATCHING_PATTERN);
        if (pattern == null) {
            return;
        }
        ServerHttpRequest request = exchange.getRequest();
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        if (!ReactorNettyChannels.isReactorNetty(nativeRequest)) {
            return;
        }
        String contextPath = request.getPath().contextPath().value();
        String template = pattern.toString();
        ReactorNettyChannels.nameRoute(nativeRequest, contextPath.isEmpty() ? template : prefixed(contextPath, template));
    }

    static String prefixed(String contextPath, String pattern) {
        return pattern.startsWith("/") ? contextPath + pattern : contextPath + "/" + pattern;
    }
}
