package io.argus.plugin.undertow;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.state.ObjectField;
import io.undertow.server.HttpServerExchange;

/** The state the advice keeps on an exchange, and what its probes share. A helper class. */
public final class UndertowFields {

    static final String SPAN = "undertow.span";

    /** The server span of a traced exchange, from its start until its completion. */
    public static final ObjectField<ActiveSpan> EXCHANGE_SPAN = ObjectField.named(SPAN);

    private UndertowFields() {
    }

    /** The recorded path: the raw request URI, or the decoded path when the client sent an absolute URI. */
    public static String path(HttpServerExchange exchange) {
        return exchange.isHostIncludedInRequestURI() ? exchange.getRequestPath() : exchange.getRequestURI();
    }
}
