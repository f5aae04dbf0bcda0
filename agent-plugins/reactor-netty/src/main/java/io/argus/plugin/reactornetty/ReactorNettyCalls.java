package io.argus.plugin.reactornetty;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.state.LongField;
import io.argus.bridge.state.ObjectField;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.function.Supplier;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.HttpMethod;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClientRequest;
import reactor.netty.http.client.HttpClientResponse;

/**
 * The calls of a Reactor Netty {@code HttpClient}, kept on its operations object (one per request attempt) from the
 * request's preparation to the first of: the exchange's end, the connection's close, the application's cancel, an
 * error writing the request. The host field marks a call in progress and is taken once, so a call ends once. A
 * helper class: nothing here throws into Reactor Netty.
 *
 * <p>Untraced: two field writes (the start and the host, read from the request's own address without allocating) and,
 * at the end, {@code ClientCalls.end} with no span. Traced: the span under the context the subscription kept, and
 * {@code traceparent}/{@code tracestate} set in the request's headers before anything is written.
 */
public final class ReactorNettyCalls {

    static final String CONTEXT_FIELD = "reactor-netty.context";
    static final String HOST_FIELD = "reactor-netty.host";
    static final String SPAN_FIELD = "reactor-netty.span";
    static final String START_FIELD = "reactor-netty.start";
    static final String SUBSCRIBED_FIELD = "reactor-netty.subscribed";
    static final String PEER_FIELD = "reactor-netty.peer";

    /** The trace context of a subscription, on its {@code HttpClientHandler}. */
    public static final ObjectField<Object> CONTEXT = ObjectField.named(CONTEXT_FIELD);
    /** The host of the call in progress on an operations object; null when none is. */
    public static final ObjectField<String> HOST = ObjectField.named(HOST_FIELD);
    public static final ObjectField<ActiveSpan> SPAN = ObjectField.named(SPAN_FIELD);
    public static final LongField START = LongField.named(START_FIELD);
    /** The host the client named for a connection, on its Netty channel. */
    public static final ObjectField<String> PEER = ObjectField.named(PEER_FIELD);
    /** When the subscription of a traced {@code HttpClientHandler} was made. */
    public static final LongField SUBSCRIBED = LongField.named(SUBSCRIBED_FIELD);

    private ReactorNettyCalls() {
    }

    /**
     * Why a call ended without its response: the span's error tag is the class name, so each reason is a class.
     * Made once, without a stack trace.
     */
    abstract static class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Failure CLOSED = new ConnectionClosed();
        static final Failure CANCELLED = new Cancelled();
        static final Failure NO_RESPONSE = new NoResponse();

        Failure(String message) {
            super(message, null, false, false);
        }
    }

    static final class ConnectionClosed extends Failure {
        private static final long serialVersionUID = 1L;

        ConnectionClosed() {
            super("connection closed before the response completed");
        }
    }

    static final class Cancelled extends Failure {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super("cancelled before the response completed");
        }
    }

    static final class NoResponse extends Failure {
        private static final long serialVersionUID = 1L;

        NoResponse() {
            super("ended without a response");
        }
    }

    /** The request of {@code operations} is about to be written by {@code handler}. */
    public static void requestPrepared(Object handler, Object operations, long startNanos) {
        if (!(operations instanceof HttpClientRequest) || !(operations instanceof Connection)) {
            return;
        }
        HttpClientRequest request = (HttpClientRequest) operations;
        // the host once per connection: the handler makes a new address on each call, and an IP's string is new too
        Channel channel = ((Connection) operations).channel();
        String host = PEER.get(channel);
        if (host == null) {
            InetSocketAddress address = address(handler);
            host = address != null ? address.getHostString() : "unknown";
            PEER.set(channel, host);
        }
        START.set(operations, startNanos);
        HOST.set(operations, host);
        Object context = CONTEXT.get(handler);
        if (context == null) {
            return;
        }
        InetSocketAddress address = address(handler);
        int port = address != null ? address.getPort() : -1;
        Object previous = TraceContext.attach(context);
        try {
            ActiveSpan span = ClientCalls.start(request.method().name(), host, port, request.resourceUrl(), startNanos);
            if (span != null) {
                ClientCalls.inject(span, request.requestHeaders(), RequestHeaders.INSTANCE);
                SPAN.set(operations, span);
            }
        } finally {
            TraceContext.restore(previous);
        }
    }

    /**
     * The subscription of {@code handler} could not connect: a call that sent nothing, from the subscription to now,
     * with the error. {@code method} is the handler's Netty {@code HttpMethod}.
     */
    public static void connectFailed(Object handler, Object method, Throwable error) {
        InetSocketAddress address = address(handler);
        String host = address != null ? address.getHostString() : "unknown";
        int port = address != null ? address.getPort() : -1;
        String name = method instanceof HttpMethod ? ((HttpMethod) method).name() : "GET";
        // kept only for a traced subscription: an untraced one's failure counts from now
        long startNanos = SUBSCRIBED.get(handler);
        if (startNanos == 0) {
            startNanos = System.nanoTime();
        }
        ActiveSpan span = null;
        Object context = CONTEXT.get(handler);
        if (context != null) {
            Object previous = TraceContext.attach(context);
            try {
                span = ClientCalls.start(name, host, port, "http://" + host + ":" + port, startNanos);
            } finally {
                TraceContext.restore(previous);
            }
        }
        ClientCalls.end(span, startNanos, name, host, 0, error);
    }

    /** The remote address of a {@code HttpClientHandler} (a {@code Supplier<SocketAddress>}): the URI's, unresolved. */
    @SuppressWarnings("unchecked")
    private static InetSocketAddress address(Object handler) {
        SocketAddress address = handler instanceof Supplier ? ((Supplier<SocketAddress>) handler).get() : null;
        return address instanceof InetSocketAddress ? (InetSocketAddress) address : null;
    }

    /** The exchange of {@code operations} ended: with its response's status, or without a response. */
    public static void terminated(Object operations) {
        int status = status(operations);
        end(operations, status, status == 0 ? Failure.NO_RESPONSE : null);
    }

    /** The connection of {@code operations} closed before its response completed. */
    public static void closed(Object operations) {
        failed(operations, Failure.CLOSED);
    }

    /** The application stopped listening before the response of {@code operations} completed. */
    public static void cancelled(Object operations) {
        failed(operations, Failure.CANCELLED);
    }

    /** The call of {@code operations}, if still in progress, ended without its response completing. */
    public static void failed(Object operations, Throwable error) {
        if (HOST.get(operations) != null) {
            end(operations, status(operations), error);
        }
    }

    private static void end(Object operations, int status, Throwable error) {
        String host = HOST.remove(operations);
        if (host == null) {
            return;
        }
        ActiveSpan span = SPAN.remove(operations);
        String method = ((HttpClientRequest) operations).method().name();
        ClientCalls.end(span, START.get(operations), method, host, status, error);
    }

    /** The response's status; 0 when none arrived (Reactor Netty throws then, in some versions). */
    private static int status(Object operations) {
        try {
            return ((HttpClientResponse) operations).status().code();
        } catch (RuntimeException noResponse) {
            return 0;
        }
    }
}
