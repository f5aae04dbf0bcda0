package io.argus.plugin.spring;

import io.argus.bridge.server.ServerCalls;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Reports the route template Spring MVC matched for a request. A helper class: defined in Spring's
 * class loader.
 */
public final class MvcRoutes {

    /** {@code HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE}. */
    static final String BEST_MATCHING_PATTERN = "org.springframework.web.servlet.HandlerMapping.bestMatchingPattern";

    private MvcRoutes() {
    }

    /**
     * The pattern is relative to the context path and, for a prefix servlet mapping ({@code /app/*}),
     * to the servlet path: both are put in front, as in OpenTelemetry's {@code http.route}. An error
     * dispatch ({@code /error} in Spring Boot) keeps the route of the request that failed.
     */
    public static void report(HttpServletRequest request) {
        if (request.getDispatcherType() == DispatcherType.ERROR) {
            return;
        }
        Object pattern = request.getAttribute(BEST_MATCHING_PATTERN);
        if (pattern == null) {
            return;
        }
        String contextPath = request.getContextPath();
        String servletPrefix = request.getPathInfo() != null ? request.getServletPath() : null;
        boolean bare = (contextPath == null || contextPath.isEmpty()) && (servletPrefix == null || servletPrefix.isEmpty());
        // the usual case (root context, DispatcherServlet on "/") allocates nothing
        ServerCalls.route(bare ? pattern.toString() : prefixed(contextPath, servletPrefix, pattern.toString()));
    }

    static String prefixed(String contextPath, String servletPrefix, String pattern) {
        StringBuilder route = new StringBuilder();
        if (contextPath != null) {
            route.append(contextPath);
        }
        if (servletPrefix != null) {
            route.append(servletPrefix);
        }
        if (!pattern.startsWith("/")) {
            route.append('/');
        }
        return route.append(pattern).toString();
    }
}
