package io.argus.plugin.netty4server;

import io.argus.bridge.HeaderGetter;
import io.netty.handler.codec.http.HttpRequest;

/** Netty 4 request headers, for the core's propagation logic. A helper class. */
public final class RequestHeaders implements HeaderGetter<HttpRequest> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public String get(HttpRequest request, String name) {
        return request.headers().get(name);
    }
}
