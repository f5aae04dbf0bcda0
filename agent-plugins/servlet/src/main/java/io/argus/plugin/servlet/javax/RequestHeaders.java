package io.argus.plugin.servlet.javax;

import io.argus.bridge.HeaderGetter;

import javax.servlet.http.HttpServletRequest;

/** Servlet request headers, for the core's propagation logic. A helper class. */
public final class RequestHeaders implements HeaderGetter<HttpServletRequest> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public String get(HttpServletRequest request, String name) {
        return request.getHeader(name);
    }
}
