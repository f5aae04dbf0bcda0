package io.argus.plugin.jaxrs;

import io.argus.bridge.server.ServerCalls;
import io.argus.bridge.state.ObjectField;
import org.glassfish.jersey.server.ContainerRequest;
import org.glassfish.jersey.uri.UriTemplate;

import java.util.List;

/**
 * Reports the route template of a matched Jersey request: the base URI's path (servlet context path,
 * servlet mapping prefix or {@code @ApplicationPath}, or the JDK HttpServer context) followed by the
 * matched {@code @Path} templates, outermost first. A helper class: defined in Jersey's class loader.
 */
public final class JerseyRoutes {

    static final String FIELD = "jaxrs.route";

    /** The route last made for a {@code ResourceMethodInvoker}: rebuilt only when the request differs. */
    public static final ObjectField<MatchedRoute> ROUTE = ObjectField.named(FIELD);

    private JerseyRoutes() {
    }

    public static void report(Object invoker, ContainerRequest request) {
        String basePath = request.getBaseUri().getRawPath();
        // innermost first: the method's template, its resource's, then any sub-resource locators'
        List<UriTemplate> matched = request.getUriInfo().getMatchedTemplates();
        MatchedRoute cached = ROUTE.get(invoker);
        if (cached == null || !cached.matches(basePath, matched)) {
            cached = new MatchedRoute(basePath, matched.toArray(), route(basePath, matched));
            ROUTE.set(invoker, cached);
        }
        ServerCalls.route(cached.route);
    }

    static String route(String basePath, List<UriTemplate> matched) {
        StringBuilder route = new StringBuilder();
        appendSegment(route, basePath);
        for (int i = matched.size() - 1; i >= 0; i--) {
            appendSegment(route, matched.get(i).getTemplate());
        }
        return route.length() == 0 ? "/" : route.toString();
    }

    /** Appends {@code path} as {@code /a/b}: one slash in front, none at the end; "/" and "" add nothing. */
    static void appendSegment(StringBuilder route, String path) {
        if (path == null) {
            return;
        }
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') {
            end--;
        }
        int start = 0;
        while (start < end && path.charAt(start) == '/') {
            start++;
        }
        if (start < end) {
            route.append('/').append(path, start, end);
        }
    }
}
