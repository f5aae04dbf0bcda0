package io.argus.plugin.reactornetty;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

/**
 * Reactor Netty's {@code HttpClient} (and so Spring's {@code WebClient} on its default connector): a CLIENT span per
 * request sent, with {@code traceparent} in the request's headers, ended when the response completes, fails or is
 * cancelled; the HTTP client metrics for every request, traced or not.
 *
 * <ul>
 *   <li>{@code HttpClientConnect$HttpClientHandler}, made once per subscription on the subscribing thread: keeps the
 *       trace context current there ({@link HandlerCreatedAdvice}). The request itself is sent later from the
 *       connection's event loop, where nothing is current.</li>
 *   <li>{@code HttpClientHandler.requestWithBody(HttpClientOperations)}: each attempt (a retry, a redirect) on its
 *       connection: the start, the host, and for a traced subscription the span and the headers
 *       ({@link RequestAdvice}).</li>
 *   <li>{@code HttpClientHandler.test(Throwable)}, the subscription's retry filter: a connection that could not be made
 *       (refused, unknown host) is a call that failed at once ({@link ConnectFailedAdvice}).</li>
 *   <li>{@code ChannelOperations.terminate()}, {@code HttpClientOperations.onInboundClose()}, {@code onInboundCancel()}
 *       and {@code onOutboundError(Throwable)}: the first of them ends the call ({@link ClientCalls}, in
 *       {@link ReactorNettyCalls}).</li>
 * </ul>
 * Server spans for Reactor Netty's {@code HttpServer} come from the {@code netty4-http-server} plugin.
 */
public final class ReactorNettyClientPlugin implements ArgusPlugin {

    static final String HANDLER = "reactor.netty.http.client.HttpClientConnect$HttpClientHandler";
    static final String CLIENT_OPS = "reactor.netty.http.client.HttpClientOperations";
    static final String CHANNEL_OPS = "reactor.netty.channel.ChannelOperations";
    private static final String P = "io.argus.plugin.reactornetty.";
    private static final String[] HELPERS = {P + "ReactorNettyCalls", P + "RequestHeaders", P + "ReactorNettyCalls$Failure",
            P + "ReactorNettyCalls$ConnectionClosed", P + "ReactorNettyCalls$Cancelled", P + "ReactorNettyCalls$NoResponse"};

    /** The transports' client channels: the connection's host is kept there (see the netty4-http-server plugin). */
    private static final String[] CHANNELS = {
            "io.netty.channel.socket.nio.NioSocketChannel",
            "io.netty.channel.epoll.EpollSocketChannel",
            "io.netty.channel.kqueue.KQueueSocketChannel",
            "io.netty.channel.uring.IoUringSocketChannel",
    };

    @Override
    public String name() {
        return "reactor-netty";
    }

    @Override
    public void instrument(Probes probes) {
        for (String channel : CHANNELS) {
            probes.field(channel, ReactorNettyCalls.PEER_FIELD);
        }
        probes.field(HANDLER, ReactorNettyCalls.CONTEXT_FIELD);
        probes.longField(HANDLER, ReactorNettyCalls.SUBSCRIBED_FIELD);
        // on the base class: terminate() is final there, and every operations object then has real fields
        probes.field(CHANNEL_OPS, ReactorNettyCalls.HOST_FIELD);
        probes.field(CHANNEL_OPS, ReactorNettyCalls.SPAN_FIELD);
        probes.longField(CHANNEL_OPS, ReactorNettyCalls.START_FIELD);

        probes.type(HANDLER).helpers(HELPERS)
                .advise(isConstructor(), P + "HandlerCreatedAdvice")
                .advise(named("requestWithBody").and(takesArguments(1)), P + "RequestAdvice")
                .advise(named("test").and(takesArguments(1)).and(takesArgument(0, named("java.lang.Throwable"))), P + "ConnectFailedAdvice");
        probes.type(CHANNEL_OPS).helpers(HELPERS)
                .advise(named("terminate").and(takesArguments(0)), P + "TerminateAdvice");
        probes.type(CLIENT_OPS).helpers(HELPERS)
                .advise(named("onInboundClose").and(takesArguments(0)), P + "InboundCloseAdvice")
                .advise(named("onInboundCancel").and(takesArguments(0)), P + "InboundCancelAdvice")
                .advise(named("onOutboundError").and(takesArguments(1)), P + "OutboundErrorAdvice");
    }
}
