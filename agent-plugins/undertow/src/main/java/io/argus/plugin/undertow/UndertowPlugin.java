package io.argus.plugin.undertow;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Server spans and HTTP server metrics for Undertow 2.x ({@code io.undertow:undertow-core}), with or
 * without undertow-servlet. Every probe matches one class by its exact name.
 *
 * <ul>
 *   <li>{@code HttpServerExchange.setRequestStartTime(long)}: the request starts where Undertow records
 *       its start time. With {@code UndertowOptions.RECORD_REQUEST_START_TIME} on, Undertow does that
 *       itself once the request head is parsed; otherwise {@link RootHandlerAdvice} does it (through
 *       Undertow's public {@code Connectors.setRequestStartTime}) the first time the exchange reaches
 *       a root handler. Either way it happens once per exchange, and the exchange's own
 *       {@code requestStartTime} field carries the start time to the end, so nothing is allocated.</li>
 *   <li>{@code Connectors.executeRootHandler(HttpHandler, HttpServerExchange)}: every dispatch of the
 *       exchange (the I/O thread, then worker threads) runs here; the span of a traced request is
 *       current while it runs.</li>
 *   <li>{@code HttpServerExchange.invokeExchangeCompleteListeners()}: Undertow calls it when both the
 *       request and the response are done, before its completion listeners (the access log); a guard
 *       field makes its body run once per exchange, and the advice honours the same guard.</li>
 *   <li>{@code io.undertow.servlet.spec.HttpServletRequestImpl.getAttribute(String)}: answers
 *       {@code io.argus.server.owner} with {@code "undertow"}, so that the servlet plugin leaves
 *       these requests to this plugin.</li>
 * </ul>
 */
public final class UndertowPlugin implements ArgusPlugin {

    static final String EXCHANGE = "io.undertow.server.HttpServerExchange";
    static final String CONNECTORS = "io.undertow.server.Connectors";
    static final String SERVLET_REQUEST = "io.undertow.servlet.spec.HttpServletRequestImpl";

    private static final String ADVICE = "io.argus.plugin.undertow.";

    @Override
    public String name() {
        return "undertow";
    }

    @Override
    public void instrument(Probes probes) {
        probes.type(EXCHANGE)
                .advise(named("setRequestStartTime").and(takesArguments(1)).and(takesArgument(0, long.class)),
                        ADVICE + "StartAdvice")
                .advise(named("invokeExchangeCompleteListeners").and(takesArguments(0)),
                        ADVICE + "CompleteAdvice");
        probes.type(CONNECTORS)
                .advise(named("executeRootHandler").and(takesArguments(2))
                                .and(takesArgument(0, named("io.undertow.server.HttpHandler")))
                                .and(takesArgument(1, named(EXCHANGE))),
                        ADVICE + "RootHandlerAdvice");
        probes.type(SERVLET_REQUEST)
                .advise(named("getAttribute").and(takesArguments(1)).and(takesArgument(0, named("java.lang.String"))),
                        ADVICE + "OwnerAttributeAdvice");
    }
}
