package io.argus.plugin.jetty.v9;

import io.argus.bridge.HeaderGetter;
import org.eclipse.jetty.server.Request;

/** Jetty 9.4 request headers, for the core's propagation logic. A helper class. */
public final class RequestHeaders implements HeaderGetter<Request> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public String get(Request request, String name) {
        return request.getHeader(name);
    }
}
