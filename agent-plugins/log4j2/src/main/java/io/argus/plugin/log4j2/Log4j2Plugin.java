package io.argus.plugin.log4j2;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Trace ids in the context data of Log4j 2 events ({@code %X{trace_id}}, {@code %X{span_id}},
 * {@code %X{trace_flags}}), Log4j 2.17 to 2.26. Every event gets its context data from a
 * {@code ContextDataInjector} on the thread that logs, whatever happens to it next (async loggers and
 * appenders copy it). Log4j keeps its injector in static finals from start-up, so the probe is on the
 * injectors' own method, not on the factory that makes them.
 */
public final class Log4j2Plugin implements ArgusPlugin {

    @Override
    public String name() {
        return "log4j2";
    }

    @Override
    public void instrument(Probes probes) {
        // ThreadContextDataInjector$For*ThreadContextMap, and an application's own injector
        probes.subtypesOf("org.apache.logging.log4j.core.ContextDataInjector", "Injector")
                .helpers("io.argus.plugin.log4j2.Log4j2TraceIds")
                .advise(named("injectContextData").and(takesArguments(2)).and(not(isAbstract())),
                        "io.argus.plugin.log4j2.InjectContextDataAdvice");
    }
}
