package io.argus.plugin.springwebflux;

import io.argus.bridge.state.ObjectField;
import reactor.netty.Connection;

/**
 * Hands a route template to the Netty channel of a Reactor Netty request, in the field the {@code netty4-http-server}
 * plugin reads when the request it serves ends. Reactor Netty serves a connection's requests one at a time (it holds
 * pipelined ones back), so the channel's field belongs to the request in progress. A helper class: Reactor Netty's
 * classes are reached only once a request's class says it is Reactor Netty's, so WebFlux on another server never
 * loads them.
 */
public final class ReactorNettyChannels {

    /** The field's name, declared by the netty4-http-server plugin on the transports' channel classes. */
    static final String ROUTE_FIELD = "netty4-http-server.route";

    /** Null when the netty4-http-server plugin is off: it would end no request to name. */
    private static final ObjectField<String> ROUTE = routeField();

    private ReactorNettyChannels() {
    }

    private static ObjectField<String> routeField() {
        try {
            return ObjectField.named(ROUTE_FIELD);
        } catch (IllegalArgumentException notDeclared) {
            return null;
        }
    }

    /** Whether {@code nativeRequest} is Reactor Netty's: its class name, so that no other server loads its types. */
    static boolean isReactorNetty(Object nativeRequest) {
        return ROUTE != null && nativeRequest != null && nativeRequest.getClass().getName().startsWith("reactor.netty.");
    }

    static void nameRoute(Object nativeRequest, String route) {
        if (nativeRequest instanceof Connection) {
            ROUTE.set(((Connection) nativeRequest).channel(), route);
        }
    }
}
