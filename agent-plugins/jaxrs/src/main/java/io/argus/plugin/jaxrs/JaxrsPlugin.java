package io.argus.plugin.jaxrs;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * JAX-RS on Jersey 2.x ({@code javax.ws.rs}) and 3.x ({@code jakarta.ws.rs}): names the server request
 * by its {@code @Path} template once Jersey has matched the resource method. Server spans themselves
 * come from the container's plugin (JDK HttpServer, Jetty, Tomcat, Undertow, servlet).
 */
public final class JaxrsPlugin implements ArgusPlugin {

    static final String INVOKER = "org.glassfish.jersey.server.model.ResourceMethodInvoker";

    @Override
    public String name() {
        return "jaxrs";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(INVOKER, JerseyRoutes.FIELD);
        probes.type(INVOKER)
                .helpers("io.argus.plugin.jaxrs.MatchedRoute", "io.argus.plugin.jaxrs.JerseyRoutes")
                .advise(named("apply").and(takesArguments(1))
                                .and(takesArgument(0, named("org.glassfish.jersey.server.internal.process.RequestProcessingContext"))),
                        "io.argus.plugin.jaxrs.InvokeAdvice");
    }
}
