package io.argus.plugin.undertow;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static io.argus.core.plugin.ArgumentMatchers.takesArgumentNamed;
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
 *       {@code requestStartTime} field carries the start time to the end, so nothing is allocated; a
 *       traced exchange also carries its span, in a field this plugin declares on the exchange.</li>
 *   <li>{@code Connectors.executeRootHandler(HttpHandler, HttpServerExchange)}: every dispatch of the
 *       exchange (the I/O thread, then worker threads) runs here; the span of a traced request is
 *       current while it runs.</li>
 *   <li>{@code HttpServerExchange.invokeExchangeCompleteListeners()}: Undertow calls it when both the
 *       request and the response are done, before its completion listeners (the access log); a guard
 *       field makes its body run once per exchange, and the advice honours the same guard.</li>
 * </ul>
 */
public final class UndertowPlugin implements ArgusPlugin {

    static final String EXCHANGE = "io.undertow.server.HttpServerExchange";
    static final String CONNECTORS = "io.undertow.server.Connectors";

    private static final String ADVICE = "io.argus.plugin.undertow.";
    private static final String FIELDS = ADVICE + "UndertowFields";

    @Override
    public String name() {
        return "undertow";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(EXCHANGE, UndertowFields.SPAN);

        probes.type(EXCHANGE)
                .helpers(FIELDS, ADVICE + "ExchangeHeaders")
                .advise(named("setRequestStartTime").and(takesArguments(1)).and(takesArgumentNamed(0, "long")),
                        ADVICE + "StartAdvice")
                .advise(named("invokeExchangeCompleteListeners").and(takesArguments(0)),
                        ADVICE + "CompleteAdvice");
        probes.type(CONNECTORS).helpers(FIELDS)
                .advise(named("executeRootHandler").and(takesArguments(2))
                                .and(takesArgument(0, named("io.undertow.server.HttpHandler")))
                                .and(takesArgument(1, named(EXCHANGE))),
                        ADVICE + "RootHandlerAdvice");
    }
}
