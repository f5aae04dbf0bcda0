package io.argus.plugin.jettyclient.v9;

import io.argus.bridge.HeaderSetter;
import org.eclipse.jetty.client.HttpRequest;
import org.eclipse.jetty.http.HttpFields;

/** Jetty 9.4 outbound request headers, for the core's propagation logic. A helper class. */
public final class RequestHeaders implements HeaderSetter<HttpRequest> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public void set(HttpRequest request, String name, String value) {
        HttpFields headers = request.getHeaders();
        if (value != null) {
            headers.put(name, value);
        } else {
            headers.remove(name);
        }
    }
}
