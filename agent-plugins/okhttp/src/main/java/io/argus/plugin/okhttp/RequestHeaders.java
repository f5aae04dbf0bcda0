package io.argus.plugin.okhttp;

import io.argus.bridge.HeaderSetter;
import okhttp3.Request;

/**
 * The headers of the copy of an outbound request ({@code Request} is immutable), for the core's
 * propagation logic. A helper class.
 */
public final class RequestHeaders implements HeaderSetter<Request.Builder> {

    public static final RequestHeaders INSTANCE = new RequestHeaders();

    @Override
    public void set(Request.Builder request, String name, String value) {
        if (value != null) {
            request.header(name, value);
        } else {
            request.removeHeader(name);
        }
    }
}
