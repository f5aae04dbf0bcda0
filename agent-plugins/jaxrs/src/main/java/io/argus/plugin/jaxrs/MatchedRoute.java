package io.argus.plugin.jaxrs;

import java.util.List;

/**
 * The route last made for a resource method: valid for a request with the same base path and the same
 * matched templates (compared by identity: Jersey keeps one per resource and method). A helper class.
 */
public final class MatchedRoute {

    final String basePath;
    final Object[] templates;
    final String route;

    MatchedRoute(String basePath, Object[] templates, String route) {
        this.basePath = basePath;
        this.templates = templates;
        this.route = route;
    }

    boolean matches(String requestBasePath, List<?> matched) {
        if (matched.size() != templates.length || !basePath.equals(requestBasePath)) {
            return false;
        }
        for (int i = 0; i < templates.length; i++) {
            if (matched.get(i) != templates[i]) {
                return false;
            }
        }
        return true;
    }
}
