package io.argus.plugin.tomcat;

import io.argus.bridge.HeaderGetter;
import org.apache.coyote.Request;

/** Tomcat's request headers, for the core's propagation logic (an absent header is a scan of Tomcat's array). A helper class. */
public final class CoyoteRequestHeaders implements HeaderGetter<Request> {

    public static final CoyoteRequestHeaders INSTANCE = new CoyoteRequestHeaders();

    @Override
    public String get(Request request, String name) {
        return request.getHeader(name);
    }
}
