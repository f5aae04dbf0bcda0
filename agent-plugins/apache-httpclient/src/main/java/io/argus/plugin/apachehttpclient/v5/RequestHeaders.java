package io.argus.plugin.apachehttpclient.v5;

import io.argus.bridge.HeaderSetter;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpMessage;

/** HttpClient 5.x (HttpCore 5) request headers, classic and async, for the core's propagation logic. A helper class. */
public final class RequestHeaders implements HeaderSetter<HttpMessage> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public void set(HttpMessage request, String name, String value) {
        if (value != null) {
            request.setHeader(name, value);
        } else {
            request.removeHeaders(name);
        }
    }

    /** Puts back the values header {@code name} had before the call: the request object is the application's. */
    public static void restore(HttpMessage request, String name, Header[] values) {
        request.removeHeaders(name);
        for (Header header : values) {
            request.addHeader(header);
        }
    }
}
