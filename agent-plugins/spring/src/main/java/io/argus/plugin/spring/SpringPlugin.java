package io.argus.plugin.spring;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Spring Framework 6.x and 7.x: Spring MVC names the server request by its route template once a
 * controller method is matched, and every run of a {@code @Scheduled} method is a root of its own.
 * Server spans themselves come from the container's plugin (Tomcat, Jetty, Undertow, servlet).
 */
public final class SpringPlugin implements ArgusPlugin {

    static final String MVC_MAPPING = "org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping";
    static final String SCHEDULED_RUNNABLE = "org.springframework.scheduling.support.ScheduledMethodRunnable";

    @Override
    public String name() {
        return "spring";
    }

    @Override
    public void instrument(Probes probes) {
        // the matched pattern is a request attribute once handleMatch returns
        probes.type(MVC_MAPPING)
                .helpers("io.argus.plugin.spring.MvcRoutes")
                .advise(named("handleMatch").and(takesArguments(3)).and(not(isBridge()))
                                .and(takesArgument(2, named("jakarta.servlet.http.HttpServletRequest"))),
                        "io.argus.plugin.spring.HandleMatchAdvice");

        probes.field(SCHEDULED_RUNNABLE, ScheduledNames.FIELD);
        probes.type(SCHEDULED_RUNNABLE)
                .helpers("io.argus.plugin.spring.ScheduledNames")
                .advise(named("run").and(takesArguments(0)), "io.argus.plugin.spring.ScheduledRunAdvice");
    }
}
