package io.argus.plugin.jdkhttp.app;

import io.argus.testing.app.Downstream;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static io.argus.testing.app.Downstream.error;
import static io.argus.testing.app.Downstream.status;
import static io.argus.testing.app.Downstream.traced;

/**
 * The application under test, forked with the agent. It runs agent-testing-app's {@link Downstream}
 * server on 127.0.0.1 as the downstream service, makes the calls the test asks for with
 * {@code java.net.http.HttpClient}, prints what happened (the lines of {@link Downstream}), then stays
 * alive until the test stops it.
 */
public final class HttpClientApp {

    public static final int PLAIN_CALLS = 5;
    public static final int ASYNC_CALLS = 3;
    /** Synchronous traced calls to 127.0.0.1 besides the first: the redirected one and the one with stale headers. */
    public static final int MORE_TRACED_CALLS = 2;
    public static final String STALE_TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private HttpClientApp() {
    }

    public static void main(String[] args) throws Exception {
        Downstream downstream = Downstream.start();
        String base = downstream.base;
        int closedPort = downstream.closedPort;
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        // 1. a traced call: the parent is a server span started by hand
        traced("traced", () -> send(client, base + "/ok?tag=traced", "traced"));
        // 2. a traced call that fails: connection refused
        traced("refused-traced", () -> send(client, "http://127.0.0.1:" + closedPort + "/refused?tag=refused-traced",
                "refused-traced"));
        // 3. calls without any current span
        for (int i = 0; i < PLAIN_CALLS; i++) {
            send(client, base + "/ok?tag=plain" + i, "plain" + i);
        }
        send(client, "http://127.0.0.1:" + closedPort + "/refused?tag=refused-plain", "refused-plain");
        send(client, base + "/missing?tag=missing", "missing");
        // 4. an inbound tracestate is passed on
        Downstream.tracedWithState("tracestate", "vendor=argus", () -> send(client, base + "/ok?tag=tracestate", "tracestate"));
        // 5. a traced call that is redirected (302 to /ok), by a client that follows redirects
        HttpClient following = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        traced("redirect-traced", () -> send(following, base + "/redirect?tag=redirect-traced", "redirect-traced"));
        // 6. a traced call whose request already carries trace headers (copied from elsewhere): the span's replace them
        traced("stale-headers", () -> send(client, HttpRequest.newBuilder(URI.create(base + "/ok?tag=stale-headers"))
                .header("x-test", "stale-headers")
                .header("traceparent", STALE_TRACEPARENT)
                .header("tracestate", "stale=1")
                .GET().build()));
        // 7. sendAsync, traced and untraced, against "localhost" so that they land in their own metric row
        String asyncBase = "http://localhost:" + downstream.port;
        traced("async-traced", () -> sendAsync(client, asyncBase + "/ok?tag=async-traced", "async-traced"));
        for (int i = 0; i < ASYNC_CALLS; i++) {
            sendAsync(client, asyncBase + "/ok?tag=async" + i, "async" + i);
        }
        Downstream.finish();
    }

    private static void send(HttpClient client, String url, String tag) {
        send(client, HttpRequest.newBuilder(URI.create(url)).header("x-test", tag).GET().build());
    }

    /** Sends {@code request}, whose {@code x-test} header is its tag. */
    private static void send(HttpClient client, HttpRequest request) {
        String tag = request.headers().firstValue("x-test").orElseThrow();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            status(tag, response.statusCode(), response.body());
        } catch (IOException e) {
            error(tag, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sendAsync(HttpClient client, String url, String tag) {
        CompletableFuture<HttpResponse<String>> future = client.sendAsync(
                HttpRequest.newBuilder(URI.create(url)).header("x-test", tag).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        try {
            HttpResponse<String> response = future.join();
            status(tag, response.statusCode(), response.body());
        } catch (CompletionException e) {
            error(tag, e.getCause());
        }
    }
}
