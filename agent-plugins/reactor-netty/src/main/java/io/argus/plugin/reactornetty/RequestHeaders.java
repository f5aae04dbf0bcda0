package io.argus.plugin.reactornetty;

import io.argus.bridge.HeaderSetter;
import io.netty.handler.codec.http.HttpHeaders;

/** The Netty headers of a Reactor Netty client request, for the core's propagation logic. A helper class. */
public final class RequestHeaders implements HeaderSetter<HttpHeaders> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public void set(HttpHeaders headers, String name, String value) {
        if (value == null) {
            headers.remove(name);
        } else {
            headers.set(name, value);
        }
    }
}
