package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderSetter;
import io.argus.bridge.client.ClientCalls;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link SendAdvice} and {@link SendAsyncAdvice} share: the client span of a request, and the
 * copy of the request that carries the span's context. A helper class.
 *
 * <p>{@code HttpRequest} is immutable and the JDK copies its headers into its own internal request
 * right after the advice, so a rebuilt request is the one way to add a header that uses public API
 * only and survives redirects and retries (the JDK carries user headers over to them). The copy keeps
 * the method, body publisher, headers, timeout, version and expect-continue flag of the user's
 * request; the user's object is never modified.
 */
public final class ClientRequests implements HeaderSetter<HttpRequest.Builder> {

    private static final ClientRequests HEADERS = new ClientRequests();

    private ClientRequests() {
    }

    /** Starts the client span of {@code request}; null when this thread has no sampled span. */
    public static ActiveSpan start(HttpRequest request) {
        URI uri = request.uri();
        int port = uri.getPort();
        if (port < 0) {
            port = "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        }
        return ClientCalls.start(request.method(), uri.getHost(), port, url(uri));
    }

    /** A copy of {@code request} with the span's context; the request itself when the copy fails. */
    public static HttpRequest withContext(HttpRequest request, ActiveSpan span) {
        try {
            HttpRequest.Builder copy = HttpRequest.newBuilder(request.uri()).expectContinue(request.expectContinue());
            Optional<Duration> timeout = request.timeout();
            if (timeout.isPresent()) {
                copy.timeout(timeout.get());
            }
            Optional<HttpClient.Version> version = request.version();
            if (version.isPresent()) {
                copy.version(version.get());
            }
            for (Map.Entry<String, List<String>> header : request.headers().map().entrySet()) {
                String name = header.getKey();
                if (name.equalsIgnoreCase("traceparent") || name.equalsIgnoreCase("tracestate")) {
                    continue; // replaced by the span's
                }
                for (String value : header.getValue()) {
                    copy.header(name, value);
                }
            }
            ClientCalls.inject(span, copy, HEADERS);
            String method = request.method();
            Optional<HttpRequest.BodyPublisher> body = request.bodyPublisher();
            if (body.isPresent()) {
                copy.method(method, body.get());
            } else if ("GET".equals(method)) {
                copy.GET();
            } else if ("DELETE".equals(method)) {
                copy.DELETE();
            } else {
                copy.method(method, HttpRequest.BodyPublishers.noBody());
            }
            return copy.build();
        } catch (RuntimeException unsupported) {
            return request; // goes out as it is, without trace headers
        }
    }

    /** The copy has none of the user's trace headers, so there is nothing to remove for a null value. */
    @Override
    public void set(HttpRequest.Builder copy, String name, String value) {
        if (value != null) {
            copy.setHeader(name, value);
        }
    }

    private static String url(URI uri) {
        if (uri.getRawUserInfo() == null && uri.getRawFragment() == null) {
            return uri.toString();
        }
        // never put credentials into a span
        StringBuilder b = new StringBuilder(64).append(uri.getScheme()).append("://").append(uri.getHost());
        if (uri.getPort() >= 0) {
            b.append(':').append(uri.getPort());
        }
        if (uri.getRawPath() != null) {
            b.append(uri.getRawPath());
        }
        if (uri.getRawQuery() != null) {
            b.append('?').append(uri.getRawQuery());
        }
        return b.toString();
    }
}
