package io.argus.plugin.undertow;

import io.argus.bridge.HeaderGetter;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.HttpString;

/**
 * An exchange's request headers, for the core's propagation logic. A look-up is a pass over the
 * headers with Undertow's cookie-based iteration: {@code HeaderMap.getFirst(String)} would allocate
 * a byte array per look-up. A helper class.
 */
public final class ExchangeHeaders implements HeaderGetter<HttpServerExchange> {

    public static final ExchangeHeaders INSTANCE = new ExchangeHeaders();

    @Override
    public String get(HttpServerExchange exchange, String name) {
        HeaderMap headers = exchange.getRequestHeaders();
        int length = name.length();
        for (long cookie = headers.fastIterateNonEmpty(); cookie != -1L; cookie = headers.fiNextNonEmpty(cookie)) {
            HeaderValues values = headers.fiCurrent(cookie);
            HttpString header = values.getHeaderName();
            if (header.length() == length && header.equalToString(name)) {
                return values.getFirst();
            }
        }
        return null;
    }
}
