package io.argus.plugin.netty3;

import io.argus.bridge.HeaderSetter;
import org.jboss.netty.handler.codec.http.HttpHeaders;
import org.jboss.netty.handler.codec.http.HttpRequest;

import java.util.Collections;

/**
 * Netty 3 request headers, for the core's context injection. Uses the static {@code HttpHeaders}
 * helpers, which exist in every Netty 3 ({@code HttpMessage#headers()} only since 3.8). A helper class.
 */
public final class RequestHeaders implements HeaderSetter<HttpRequest> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public void set(HttpRequest request, String name, String value) {
        if (value != null) {
            HttpHeaders.setHeader(request, name, value);
        } else if (HttpHeaders.getHeader(request, name) != null) {
            HttpHeaders.setHeader(request, name, Collections.emptyList()); // removes it
        }
    }
}
