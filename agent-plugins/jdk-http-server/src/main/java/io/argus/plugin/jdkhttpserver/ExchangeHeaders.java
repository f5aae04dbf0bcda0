package io.argus.plugin.jdkhttpserver;

import com.sun.net.httpserver.HttpExchange;
import io.argus.bridge.HeaderGetter;

/** The request headers of an exchange (case-insensitive). A helper class: defined beside the JDK's server. */
public final class ExchangeHeaders implements HeaderGetter<HttpExchange> {

    public static final ExchangeHeaders INSTANCE = new ExchangeHeaders();

    @Override
    public String get(HttpExchange exchange, String name) {
        return exchange.getRequestHeaders().getFirst(name);
    }
}
