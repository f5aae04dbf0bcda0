package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderSetter;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link SendAdvice} and {@link SendAsyncAdvice} share: the client span of a request, and the
 * request that carries the span's context. A helper class.
 *
 * <p>{@code HttpRequest} is immutable, and the JDK copies it into its own {@code HttpRequestImpl}
 * right after the advice. A traced request is handed over wrapped in a {@link TracedHttpRequest}, and
 * the trace headers are set on the JDK's copy ({@link RequestCopyAdvice}): nothing of the request is
 * rebuilt. Only when the application put its own {@code traceparent} or {@code tracestate} on the
 * request (which the JDK would send instead of system headers of the same name) is the request
 * rebuilt without them, with the span's: the copy keeps the method, body publisher, headers, timeout,
 * version and expect-continue flag of the user's request. The user's object is never modified.
 */
public final class ClientRequests implements HeaderSetter<HttpRequest.Builder> {

    private static final ClientRequests HEADERS = new ClientRequests();

    private ClientRequests() {
    }

    /**
     * Starts the client span of {@code request} at {@code startNanos}; null when this thread has no
     * sampled span. The current span is looked up once, by the core; an untraced call allocates nothing
     * here ({@code URI.toString()} is kept by the URI), unless its URI has credentials or a fragment.
     */
    public static ActiveSpan start(HttpRequest request, long startNanos) {
        URI uri = request.uri();
        if ((uri.getRawUserInfo() != null || uri.getRawFragment() != null) && TraceContext.current() == null) {
            return null; // the cleaned URL is built for a traced call only
        }
        int port = uri.getPort();
        if (port < 0) {
            port = "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        }
        return ClientCalls.start(request.method(), uri.getHost(), port, url(uri), startNanos);
    }

    /** The request to send in place of {@code request}, carrying the span's context; the request itself when that fails. */
    public static HttpRequest withContext(HttpRequest request, ActiveSpan span) {
        Map<String, List<String>> headers = request.headers().map();
        if (!headers.containsKey("traceparent") && !headers.containsKey("tracestate")) {
            return new TracedHttpRequest(request, span);
        }
        return rebuilt(request, span);
    }

    /** A copy of {@code request} without its trace headers, with the span's; the request itself when the copy fails. */
    private static HttpRequest rebuilt(HttpRequest request, ActiveSpan span) {
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
