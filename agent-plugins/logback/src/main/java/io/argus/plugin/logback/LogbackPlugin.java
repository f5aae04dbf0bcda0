package io.argus.plugin.logback;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Trace ids in Logback's MDC ({@code %X{trace_id}}, {@code %X{span_id}}, {@code %X{trace_flags}}) for
 * Logback 1.2 to 1.5. A logging event keeps the span that was current on the thread that logged it
 * (it is created there, before any async appender hands it on), and its MDC map gains the ids the
 * first time a layout or appender reads it. Nothing is written to the application's MDC itself.
 */
public final class LogbackPlugin implements ArgusPlugin {

    static final String LOGGING_EVENT = "ch.qos.logback.classic.spi.LoggingEvent";

    @Override
    public String name() {
        return "logback";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(LOGGING_EVENT, LogbackTraceIds.SPAN);
        probes.type(LOGGING_EVENT)
                .helpers("io.argus.plugin.logback.LogbackTraceIds")
                // the no-argument constructor is for deserialized events: their span is not this thread's
                .advise(isConstructor().and(takesArguments(6)), "io.argus.plugin.logback.EventCreatedAdvice")
                .advise(named("getMDCPropertyMap").and(takesArguments(0)), "io.argus.plugin.logback.MdcPropertyMapAdvice");
    }
}
