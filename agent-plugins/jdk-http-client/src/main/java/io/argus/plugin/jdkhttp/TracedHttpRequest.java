package io.argus.plugin.jdkhttp;

import io.argus.bridge.ActiveSpan;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * The user's request, unchanged, with the client span whose context it must carry: what
 * {@link SendAdvice} and {@link SendAsyncAdvice} hand to the JDK in place of the user's request.
 * Every accessor delegates, so the JDK copies exactly the user's request into its own
 * {@code HttpRequestImpl}, where {@link RequestCopyAdvice} adds the trace headers as system headers.
 * One small object per traced call instead of a rebuilt request. A helper class.
 */
public final class TracedHttpRequest extends HttpRequest {

    private final HttpRequest request;
    private final ActiveSpan span;

    TracedHttpRequest(HttpRequest request, ActiveSpan span) {
        this.request = request;
        this.span = span;
    }

    public ActiveSpan span() {
        return span;
    }

    @Override
    public Optional<BodyPublisher> bodyPublisher() {
        return request.bodyPublisher();
    }

    @Override
    public String method() {
        return request.method();
    }

    @Override
    public Optional<Duration> timeout() {
        return request.timeout();
    }

    @Override
    public boolean expectContinue() {
        return request.expectContinue();
    }

    @Override
    public URI uri() {
        return request.uri();
    }

    @Override
    public Optional<HttpClient.Version> version() {
        return request.version();
    }

    @Override
    public HttpHeaders headers() {
        return request.headers();
    }
}
