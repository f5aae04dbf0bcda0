package io.argus.plugin.servlet;

import io.argus.core.plugin.PluginSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import io.argus.core.plugin.TypeProbe;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Server spans and HTTP server metrics through the Servlet API, for containers that have no plugin
 * of their own: {@code javax.servlet} 3.0 to 4.0 and {@code jakarta.servlet} 5 and 6.
 *
 * <p><b>Hook point.</b> {@code HttpServlet#service(ServletRequest, ServletResponse)}, the public entry
 * that a container calls on every HTTP servlet, matched by its exact class name in each namespace:
 * a hash look-up at class-load time, where a hierarchy probe on {@code Servlet} would have the engine
 * resolve the super types of every class of every web application. Subclasses that override the
 * protected {@code service(HttpServletRequest, HttpServletResponse)} or {@code doGet} still pass
 * through it; see README.md for what it does not see (filters' own time, requests answered by a
 * filter, servlets that override this very method).
 *
 * <p><b>One server span per request.</b> A container plugin (jetty, tomcat, undertow) records every
 * request of its container. While one is installed and enabled, this plugin marks each servlet
 * request object of that container as it is made ({@link ContainerRecordedAdvice}), and its probe
 * leaves marked requests alone. It records a request only on a {@code REQUEST} dispatch (forwards,
 * includes, error pages and async re-dispatches are part of a request already being recorded); when
 * it traces one, it keeps the span on the request, so a nested call on the same request sees a
 * recorder too. The state lives on the container's own request object, under any wrappers, in fields
 * declared on each known container's request class ({@link RequestFields}).
 *
 * <p><b>Async.</b> A request still async when {@code service} returns ends in an {@code AsyncListener}
 * on completion. The listener implements the application's servlet API, so it is a helper class: the
 * engine defines it in the class loader of {@code HttpServlet} before the advice goes in.
 *
 * <p>The container plugins know nothing of this plugin: which container a plugin records, and its
 * request classes, are written here.
 */
public final class ServletPlugin implements ArgusPlugin {

    static final String[] SERVLET_NAMESPACES = {"javax", "jakarta"};

    /** Jetty's HttpServletRequest implementations: 9.4 to 11, then Jetty 12's ee8/ee9 and ee10/ee11. */
    static final String[] JETTY_REQUESTS = {
            "org.eclipse.jetty.server.Request",
            "org.eclipse.jetty.ee8.nested.Request",
            "org.eclipse.jetty.ee9.nested.Request",
            "org.eclipse.jetty.ee10.servlet.ServletApiRequest",
            "org.eclipse.jetty.ee11.servlet.ServletApiRequest",
    };
    /** What Tomcat hands servlets (9 to 11). */
    static final String[] TOMCAT_REQUESTS = {"org.apache.catalina.connector.RequestFacade"};
    /** undertow-servlet's request, the same name in 2.2 (javax) and 2.3 (jakarta). */
    static final String[] UNDERTOW_REQUESTS = {"io.undertow.servlet.spec.HttpServletRequestImpl"};

    /** Names requests by their servlet mapping when no framework plugin names them; off by default (docs/plugins.md). */
    static final String MAPPING_ROUTES_KEY = "argus.http.servletMappingRoutes";

    private static final String ADVICE = "io.argus.plugin.servlet.";
    private static final String FIELDS = ADVICE + "RequestFields";

    @Override
    public String name() {
        return "servlet";
    }

    @Override
    public void instrument(Probes probes) {
        for (String[] requests : new String[][]{JETTY_REQUESTS, TOMCAT_REQUESTS, UNDERTOW_REQUESTS}) {
            for (String request : requests) {
                probes.field(request, RequestFields.CONTAINER_RECORDED).field(request, RequestFields.SPAN)
                        .longField(request, RequestFields.START).field(request, RequestFields.PATH)
                        .field(request, RequestFields.ERROR);
            }
        }
        boolean mappingRoutes = probes.settings().getBoolean(MAPPING_ROUTES_KEY, false);
        for (String ns : SERVLET_NAMESPACES) {
            String helpers = ADVICE + ns + ".";
            ElementMatcher.Junction<MethodDescription> service = named("service").and(takesArguments(2))
                    .and(takesArgument(0, named(ns + ".servlet.ServletRequest")))
                    .and(takesArgument(1, named(ns + ".servlet.ServletResponse")));
            TypeProbe servlet = probes.type(ns + ".servlet.http.HttpServlet")
                    .helpers(FIELDS, helpers + "ContainerRequest", helpers + "RequestHeaders",
                            helpers + "AsyncEndListener")
                    .advise(service, ADVICE + ns + ".ServiceAdvice");
            if (mappingRoutes) {
                servlet.helpers(helpers + "MappingRoute").advise(service, ADVICE + ns + ".MappingRouteAdvice");
            }
        }
        markRecordedByContainer(probes, "jetty", JETTY_REQUESTS);
        markRecordedByContainer(probes, "tomcat", TOMCAT_REQUESTS);
        markRecordedByContainer(probes, "undertow", UNDERTOW_REQUESTS);
    }

    private static void markRecordedByContainer(Probes probes, String plugin, String[] requests) {
        if (!pluginActive(probes.settings(), plugin)) {
            return;
        }
        for (String request : requests) {
            probes.type(request).helpers(FIELDS).advise(isConstructor(), ADVICE + "ContainerRecordedAdvice");
        }
    }

    /** Whether the container plugin {@code plugin} is among the agent's plugins and not switched off. */
    static boolean pluginActive(PluginSettings settings, String plugin) {
        String className = Character.toUpperCase(plugin.charAt(0)) + plugin.substring(1) + "Plugin";
        return settings.pluginEnabled(plugin) && ServletPlugin.class.getClassLoader()
                .getResource("io/argus/plugin/" + plugin + "/" + className + ".class") != null;
    }
}
