package io.argus.plugin.springwebflux;

import java.util.concurrent.atomic.AtomicReferenceArray;
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
 * container) keep their normalised path. With a base path the joined template comes from a small cache, so nothing is
 * allocated per request either way once the routes have been seen.
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
        ReactorNettyChannels.nameRoute(nativeRequest, contextPath.isEmpty() ? template : joined(contextPath, template));
    }

    /** Slots of (base path, pattern, route); a collision replaces the slot's entry. */
    private static final AtomicReferenceArray<String[]> JOINED = new AtomicReferenceArray<String[]>(256);

    static String joined(String contextPath, String pattern) {
        int slot = (31 * contextPath.hashCode() + pattern.hashCode()) & (JOINED.length() - 1);
        String[] entry = JOINED.get(slot);
        if (entry != null && entry[0].equals(contextPath) && entry[1].equals(pattern)) {
            return entry[2];
        }
        String route = prefixed(contextPath, pattern);
        JOINED.set(slot, new String[] {contextPath, pattern, route});
        return route;
    }

    static String prefixed(String contextPath, String pattern) {
        return pattern.startsWith("/") ? contextPath + pattern : contextPath + "/" + pattern;
    }
}
