package io.argus.plugin.servlet;

import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
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
 * <p><b>One server span per request.</b> A container plugin (jetty, tomcat, undertow) that records
 * every request of its container answers {@code request.getAttribute("io.argus.server.owner")} with
 * its name; this plugin records a request only when that attribute is null, and only on a
 * {@code REQUEST} dispatch (forwards, includes, error pages and async re-dispatches are part of a
 * request already being recorded). When it does trace a request, it sets that attribute to the span,
 * so a nested call on the same request sees an owner too. Tomcat's and Undertow's plugins answer the
 * attribute themselves; for Jetty this plugin adds the answer (see {@link JettyOwnerAttributeAdvice})
 * when the jetty plugin is installed and enabled.
 *
 * <p><b>Async.</b> A request still async when {@code service} returns ends in an {@code AsyncListener}
 * on completion. The listener implements the application's servlet API, so it is a helper class: the
 * engine defines it in the class loader of {@code HttpServlet} before the advice goes in.
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

    private static final String ADVICE = "io.argus.plugin.servlet.";

    @Override
    public String name() {
        return "servlet";
    }

    @Override
    public void instrument(Probes probes) {
        for (String ns : SERVLET_NAMESPACES) {
            probes.type(ns + ".servlet.http.HttpServlet")
                    .helpers(ADVICE + ns + ".AsyncEndListener")
                    .advise(named("service").and(takesArguments(2))
                                    .and(takesArgument(0, named(ns + ".servlet.ServletRequest")))
                                    .and(takesArgument(1, named(ns + ".servlet.ServletResponse"))),
                            ADVICE + ns + ".ServiceAdvice");
        }
        if (jettyPluginActive(probes.settings())) {
            for (String request : JETTY_REQUESTS) {
                probes.type(request).advise(getAttribute(), ADVICE + "JettyOwnerAttributeAdvice");
            }
        }
    }

    private static ElementMatcher.Junction<MethodDescription> getAttribute() {
        return named("getAttribute").and(takesArguments(1)).and(takesArgument(0, named("java.lang.String")))
                .and(not(isAbstract()));
    }

    /**
     * The jetty plugin records every request of Jetty 9.4 and 12 at the container level, but does not
     * advertise it; it does when its jar is among the agent's plugins and it is not switched off.
     */
    static boolean jettyPluginActive(AgentSettings settings) {
        return settings.pluginEnabled("jetty")
                && ServletPlugin.class.getClassLoader().getResource("io/argus/plugin/jetty/JettyPlugin.class") != null;
    }
}
