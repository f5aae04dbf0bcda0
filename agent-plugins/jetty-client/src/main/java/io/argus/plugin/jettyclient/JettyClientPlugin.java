package io.argus.plugin.jettyclient;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Client spans, W3C trace context propagation and HTTP client metrics for Jetty's
 * {@code HttpClient}: 9.4 (the version Apache Druid's router proxies queries with) and 12 (12.0.x,
 * 12.1.x). Every probe matches one class by its exact name; each Jetty generation has two:
 * <ul>
 *   <li>the {@code HttpExchange} constructor: every request that is sent (synchronous
 *       {@code send()}, asynchronous {@code send(listener)}, a redirect or authentication retry, a
 *       proxy servlet's upstream request) gets exactly one exchange, created on the thread that
 *       sends it, before its headers are serialized. The advice starts the client span under that
 *       thread's current span, sets {@code traceparent}/{@code tracestate} in the request's headers
 *       (replacing any copied from an inbound request) and keeps the start time (and span) in fields
 *       the agent gives the concrete {@code HttpRequest} class (which allocates nothing);</li>
 *   <li>the notification of the request's completion with its {@code Result}
 *       ({@code ResponseNotifier.notifyComplete(List, Result)} in 9.4,
 *       {@code ResponseListeners.notifyComplete(Result)} in 12), on whichever thread completes it,
 *       before the application's complete listeners (and so before a blocked {@code send()}
 *       returns). The first notification for a request ends it; later ones (a redirect forwarding its
 *       final result to the original request's listeners) find nothing kept and do nothing.</li>
 * </ul>
 */
public final class JettyClientPlugin implements ArgusPlugin {

    static final String EXCHANGE_9 = "org.eclipse.jetty.client.HttpExchange";
    static final String NOTIFIER_9 = "org.eclipse.jetty.client.ResponseNotifier";
    static final String EXCHANGE_12 = "org.eclipse.jetty.client.transport.HttpExchange";
    static final String LISTENERS_12 = "org.eclipse.jetty.client.transport.ResponseListeners";
    static final String REQUEST_9 = "org.eclipse.jetty.client.HttpRequest";
    static final String REQUEST_12 = "org.eclipse.jetty.client.transport.HttpRequest";
    private static final String ADVICE = "io.argus.plugin.jettyclient.";
    private static final String CALLS = ADVICE + "JettyClientCalls";
    private static final String HEADERS_9 = ADVICE + "v9.RequestHeaders";
    private static final String HEADERS_12 = ADVICE + "v12.RequestHeaders";

    @Override
    public String name() {
        return "jetty-client";
    }

    @Override
    public void instrument(Probes probes) {
        probes.field(REQUEST_9, JettyClientCalls.SPAN).longField(REQUEST_9, JettyClientCalls.START)
                .field(REQUEST_12, JettyClientCalls.SPAN).longField(REQUEST_12, JettyClientCalls.START);

        // Jetty 9.4: HttpExchange(HttpDestination, HttpRequest, List<ResponseListener>)
        probes.type(EXCHANGE_9).helpers(CALLS, HEADERS_9)
                .advise(isConstructor().and(takesArguments(3)).and(takesArgument(1, named(REQUEST_9))),
                        ADVICE + "v9.ExchangeAdvice");
        probes.type(NOTIFIER_9).helpers(CALLS)
                .advise(named("notifyComplete").and(takesArguments(2))
                                .and(takesArgument(0, named("java.util.List")))
                                .and(takesArgument(1, named("org.eclipse.jetty.client.api.Result"))),
                        ADVICE + "v9.CompleteAdvice");

        // Jetty 12: HttpExchange(HttpDestination, HttpRequest, ResponseListeners); the two-argument
        // constructor delegates to it
        probes.type(EXCHANGE_12).helpers(CALLS, HEADERS_12)
                .advise(isConstructor().and(takesArguments(3)).and(takesArgument(1, named(REQUEST_12))),
                        ADVICE + "v12.ExchangeAdvice");
        probes.type(LISTENERS_12).helpers(CALLS)
                .advise(named("notifyComplete").and(takesArguments(1))
                                .and(takesArgument(0, named("org.eclipse.jetty.client.Result"))),
                        ADVICE + "v12.CompleteAdvice");
    }
}
