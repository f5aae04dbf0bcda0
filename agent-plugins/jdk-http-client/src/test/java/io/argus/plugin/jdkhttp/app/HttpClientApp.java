package io.argus.plugin.jdkhttp.app;

import com.sun.net.httpserver.HttpServer;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.CompletionException;

/**
 * The application under test, forked with the agent. It runs a JDK {@code HttpServer} on
 * 127.0.0.1 as the downstream service (it prints every trace header it receives), makes the calls
 * the test asks for with {@code java.net.http.HttpClient}, prints what happened, then stays alive
 * until the test stops it.
 *
 * <p>There is no server plugin in the test agent, so a traced call gets its parent span from
 * {@link Argus#serverStart} called directly, as a server plugin would.
 *
 * <p>Output lines, one per event:
 * <ul>
 *   <li>{@code SERVER port=<n> closedPort=<n>}</li>
 *   <li>{@code RECEIVED tag=<tag> traceparent=<value|null> tracestate=<value|null> x-test=<value>}</li>
 *   <li>{@code ROOT tag=<tag> traceparent=<parent span>}</li>
 *   <li>{@code INBOUND tag=tracestate traceId=<id of the inbound trace context>}</li>
 *   <li>{@code STATUS tag=<tag> code=<n> body=<response body>}</li>
 *   <li>{@code ERROR tag=<tag> class=<exception class> message=<message>}</li>
 *   <li>{@code DONE}, then {@code AFTER} once the {@code /after} marker (a server span) is recorded</li>
 * </ul>
 */
public final class HttpClientApp {

    public static final int PLAIN_CALLS = 5;
    public static final int ASYNC_CALLS = 3;

    private HttpClientApp() {
    }

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String query = exchange.getRequestURI().getRawQuery();
            String tag = query != null && query.startsWith("tag=") ? query.substring(4) : "?";
            System.out.println("RECEIVED tag=" + tag
                    + " traceparent=" + exchange.getRequestHeaders().getFirst("traceparent")
                    + " tracestate=" + exchange.getRequestHeaders().getFirst("tracestate")
                    + " x-test=" + exchange.getRequestHeaders().getFirst("x-test"));
            byte[] body = ("hello-" + tag).getBytes(StandardCharsets.UTF_8);
            int status = exchange.getRequestURI().getPath().equals("/missing") ? 404 : 200;
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        int port = server.getAddress().getPort();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        System.out.println("SERVER port=" + port + " closedPort=" + closedPort);
        String base = "http://127.0.0.1:" + port;
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
        String inboundTraceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong(),
                ThreadLocalRandom.current().nextLong());
        System.out.println("INBOUND tag=tracestate traceId=" + inboundTraceId);
        ActiveSpan withState = Argus.serverStart("GET", "/with-state",
                "00-" + inboundTraceId + "-b7ad6b7169203331-01", "vendor=argus", null);
        long t0 = System.nanoTime();
        printRoot("tracestate", withState);
        send(client, base + "/ok?tag=tracestate", "tracestate");
        Argus.serverEnd(withState, t0, "GET", "/with-state", 200, null);
        // 5. sendAsync, traced and untraced, against "localhost" so that they land in their own metric row
        String asyncBase = "http://localhost:" + port;
        traced("async-traced", () -> sendAsync(client, asyncBase + "/ok?tag=async-traced", "async-traced"));
        for (int i = 0; i < ASYNC_CALLS; i++) {
            sendAsync(client, asyncBase + "/ok?tag=async" + i, "async" + i);
        }
        System.out.println("DONE");
        // a marker recorded well after the last call: once the collector shows it, every metric of
        // the calls above has been flushed (the test agent flushes metrics every second)
        Thread.sleep(1500);
        ActiveSpan after = Argus.serverStart("GET", "/after", null, null, null);
        Argus.serverEnd(after, System.nanoTime(), "GET", "/after", 200, null);
        System.out.println("AFTER");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void traced(String tag, Runnable call) {
        ActiveSpan root = Argus.serverStart("GET", "/test-" + tag, null, null, null);
        long start = System.nanoTime();
        printRoot(tag, root);
        try {
            call.run();
        } finally {
            Argus.serverEnd(root, start, "GET", "/test-" + tag, 200, null);
        }
    }

    private static void printRoot(String tag, ActiveSpan root) {
        System.out.println("ROOT tag=" + tag + " traceparent=" + (root == null ? null : root.traceparent()));
    }

    private static void send(HttpClient client, String url, String tag) {
        try {
            HttpResponse<String> response = client.send(
                    HttpRequest.newBuilder(URI.create(url)).header("x-test", tag).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            System.out.println("STATUS tag=" + tag + " code=" + response.statusCode() + " body=" + response.body());
        } catch (IOException e) {
            printError(tag, e);
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
            System.out.println("STATUS tag=" + tag + " code=" + response.statusCode() + " body=" + response.body());
        } catch (CompletionException e) {
            printError(tag, e.getCause());
        }
    }

    private static void printError(String tag, Throwable e) {
        System.out.println("ERROR tag=" + tag + " class=" + e.getClass().getName() + " message=" + e.getMessage());
    }
}
