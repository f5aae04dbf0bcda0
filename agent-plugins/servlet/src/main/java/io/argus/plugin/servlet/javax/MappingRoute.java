package io.argus.plugin.servlet.javax;

import javax.servlet.http.HttpServletRequest;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The route a request's servlet mapping gives ({@code /api/*}, {@code /*.do}, {@code /health}), from
 * {@code HttpServletRequest#getHttpServletMapping()} (Servlet 4.0+). A helper class. The plugin compiles
 * against the Servlet 3.0 API, and containers older than 4.0 lack the method, so it is reached through
 * method handles looked up once; on such a container {@link #of} always answers null.
 */
public final class MappingRoute {

    /** Distinct (context path, pattern) routes kept; a web application has a handful of mappings. */
    private static final int MAX_ROUTES = 256;

    private static final MethodHandle MAPPING;
    private static final MethodHandle MATCH;
    private static final MethodHandle PATTERN;

    static {
        MethodHandle mapping = null;
        MethodHandle match = null;
        MethodHandle pattern = null;
        try {
            Method getMapping = HttpServletRequest.class.getMethod("getHttpServletMapping");
            Class<?> mappingType = getMapping.getReturnType();
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            mapping = lookup.unreflect(getMapping).asType(MethodType.methodType(Object.class, HttpServletRequest.class));
            match = lookup.unreflect(mappingType.getMethod("getMappingMatch"))
                    .asType(MethodType.methodType(Object.class, Object.class));
            pattern = lookup.unreflect(mappingType.getMethod("getPattern"))
                    .asType(MethodType.methodType(String.class, Object.class));
        } catch (ReflectiveOperationException | LinkageError e) {
            // a Servlet 3.x container: no mapping to read
            mapping = null;
        }
        MAPPING = mapping;
        MATCH = match;
        PATTERN = pattern;
    }

    /** Context path + pattern to route; keyed by pattern, the context path compared on a hit. */
    private static final ConcurrentHashMap<String, String[]> ROUTES = new ConcurrentHashMap<String, String[]>();

    private MappingRoute() {
    }

    /**
     * The context path followed by the matched pattern; null for the default servlet ({@code /}, which
     * says nothing about the request) and when the container cannot tell.
     */
    public static String of(HttpServletRequest request) throws Throwable {
        if (MAPPING == null) {
            return null;
        }
        Object mapping = MAPPING.invokeExact(request);
        if (mapping == null) {
            return null;
        }
        Object match = MATCH.invokeExact(mapping);
        if (match == null) {
            return null;
        }
        String kind = ((Enum<?>) match).name();
        if (kind.equals("DEFAULT")) {
            return null;
        }
        String pattern = (String) PATTERN.invokeExact(mapping);
        if (pattern == null) {
            return null;
        }
        String contextPath = request.getContextPath();
        if (contextPath == null) {
            contextPath = "";
        }
        String[] cached = ROUTES.get(pattern);
        if (cached != null && cached[0].equals(contextPath)) {
            return cached[1];
        }
        String route = route(kind, contextPath, pattern);
        if (ROUTES.size() < MAX_ROUTES) {
            ROUTES.put(pattern, new String[]{contextPath, route});
        }
        return route;
    }

    private static String route(String kind, String contextPath, String pattern) {
        if (kind.equals("CONTEXT_ROOT")) {
            return contextPath + "/";
        }
        if (kind.equals("EXTENSION")) {
            return contextPath + "/" + pattern;
        }
        return contextPath + pattern;
    }
}
