package io.argus.plugin.apachehttpclient.v4;

import io.argus.bridge.HeaderSetter;
import org.apache.http.Header;
import org.apache.http.HttpMessage;

/** HttpClient 4.x request headers, for the core's propagation logic. A helper class. */
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
