package io.argus.plugin.okhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import okhttp3.HttpUrl;
import okhttp3.Request;

/** What a traced call's chain 0 builds: the span's URL tag and the request that carries the context. A helper class. */
public final class TracedRequests {

    private TracedRequests() {
    }

    /** {@code scheme://host[:port]/path?query}: never the user info; the port only when not the scheme's default. */
    public static String url(HttpUrl url) {
        String scheme = url.scheme();
        String host = url.host();
        int port = url.port();
        StringBuilder target = new StringBuilder(64).append(scheme).append("://");
        if (host.indexOf(':') >= 0) {
            target.append('[').append(host).append(']');
        } else {
            target.append(host);
        }
        if (port != HttpUrl.defaultPort(scheme)) {
            target.append(':').append(port);
        }
        target.append(url.encodedPath());
        String query = url.encodedQuery();
        if (query != null) {
            target.append('?').append(query);
        }
        return target.toString();
    }

    /**
     * A copy of {@code request} with the span's {@code traceparent} and {@code tracestate} (an
     * application's own values replaced, its {@code tracestate} dropped when the trace has none);
     * {@code request} itself when OkHttp refuses a value.
     */
    public static Request withContext(Request request, ActiveSpan span) {
        try {
            Request.Builder copy = request.newBuilder();
            ClientCalls.inject(span, copy, RequestHeaders.INSTANCE);
            return copy.build();
        } catch (RuntimeException refused) {
            // e.g. a tracestate OkHttp does not accept as a header value: the request goes out as it is
            return request;
        }
    }
}
