package io.argus.plugin.jettyclient.v12;

import io.argus.bridge.HeaderSetter;
import org.eclipse.jetty.client.transport.HttpRequest;
import org.eclipse.jetty.http.HttpFields;

/** Jetty 12 outbound request headers, for the core's propagation logic. A helper class. */
public final class RequestHeaders implements HeaderSetter<HttpRequest> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public void set(HttpRequest request, String name, String value) {
        // the request's own headers are mutable
        HttpFields fields = request.getHeaders();
        if (fields instanceof HttpFields.Mutable) {
            HttpFields.Mutable headers = (HttpFields.Mutable) fields;
            if (value != null) {
                headers.put(name, value);
            } else {
                headers.remove(name);
            }
        }
    }
}
