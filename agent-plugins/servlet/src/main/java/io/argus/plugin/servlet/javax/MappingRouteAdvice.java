package io.argus.plugin.servlet.javax;

import io.argus.bridge.server.ServerCalls;
import net.bytebuddy.asm.Advice;

import javax.servlet.DispatcherType;
import javax.servlet.ServletRequest;
import javax.servlet.http.HttpServletRequest;

/**
 * Inlined into {@code HttpServlet#service(ServletRequest, ServletResponse)} only when
 * {@code argus.http.servletMappingRoutes} is on: names a {@code REQUEST} dispatch by its servlet mapping.
 * A framework plugin that matches the request later (Spring MVC, JAX-RS) names it again, and the last
 * name wins, so the mapping is only the fallback. The jakarta copy is generated like {@link ServiceAdvice}'s.
 */
public final class MappingRouteAdvice {

    private MappingRouteAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static void enter(@Advice.Argument(0) ServletRequest req) throws Throwable {
        if (req instanceof HttpServletRequest && req.getDispatcherType() == DispatcherType.REQUEST) {
            String route = MappingRoute.of((HttpServletRequest) req);
            if (route != null) {
                ServerCalls.route(route);
            }
        }
    }
}
