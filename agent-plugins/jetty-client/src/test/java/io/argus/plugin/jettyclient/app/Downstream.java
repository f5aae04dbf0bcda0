package io.argus.plugin.jettyclient.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * What the Jetty 9.4 and Jetty 12 test applications share: a JDK {@code HttpServer} on 127.0.0.1
 * that prints the trace headers it receives, hand-made parent spans (the client-only scenarios run
 * without a server plugin), and the output format. Output lines:
 * <ul>
 *   <li>{@code SERVER port=<n> closedPort=<n>}</li>
 *   <li>{@code RECEIVED tag=<tag> method=<m> traceparent=<value|null> tracestate=<value|null> x-test=<value>}</li>
 *   <li>{@code ROOT tag=<tag> traceparent=<parent span|null>}</li>
 *   <li>{@code INBOUND tag=tracestate traceId=<id>}</li>
 *   <li>{@code STATUS tag=<tag> code=<n> thread=<sync|async> body=<body>}</li>
 *   <li>{@code ERROR tag=<tag> class=<exception class> message=<message without spaces>}</li>
 *   <li>{@code DONE}, then {@code AFTER} once the {@code /after} marker (a server span) is recorded</li>
 * </ul>
 * Paths: {@code /ok} (200), {@code /echo} (the request body), {@code /missing} (404), {@code /fail}
 * (500), {@code /redirect} (302 to {@code /ok?tag=<tag>-target}).
 */
public final class Downstream {

    public static final int PLAIN_CALLS = 5;
    public static final int ASYNC_PLAIN_CALLS = 3;
    public static final int CONCURRENT_THREADS = 4;
    public static final int CONCURRENT_CALLS = 5;

    public final int port;
    public final int closedPort;
    public final String base;
    private final ExecutorService threads = Executors.newFixedThreadPool(CONCURRENT_THREADS);

    public Downstream() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", Downstream::serve);
        server.start();
        port = server.getAddress().getPort();
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        base = "http://127.0.0.1:" + port;
        System.out.println("SERVER port=" + port + " closedPort=" + closedPort);
        try {
            awaitGate();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits (up to 30 s) for the test to say the agent is connected to the collector. */
    public static void awaitGate() throws InterruptedException {
        String gate = System.getProperty("argus.test.gate");
        if (gate == null) {
            return;
        }
        java.nio.file.Path file = java.nio.file.Paths.get(gate);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!java.nio.file.Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }


    private static void serve(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        String tag = query != null && query.startsWith("tag=") ? query.substring(4) : "?";
        System.out.println("RECEIVED tag=" + tag + " method=" + exchange.getRequestMethod()
                + " traceparent=" + exchange.getRequestHeaders().getFirst("traceparent")
                + " tracestate=" + exchange.getRequestHeaders().getFirst("tracestate")
                + " x-test=" + exchange.getRequestHeaders().getFirst("x-test"));
        byte[] requestBody = exchange.getRequestBody().readAllBytes();
        String path = exchange.getRequestURI().getPath();
        if (path.equals("/redirect")) {
            exchange.getResponseHeaders().add("Location", "/ok?tag=" + tag + "-target");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
            return;
        }
        int status = path.equals("/missing") ? 404 : path.equals("/fail") ? 500 : 200;
        byte[] body = path.equals("/echo") ? requestBody : ("hello-" + tag).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** Runs {@code call} on a worker thread under a fresh hand-made server span. */
    public void traced(String tag, Callable<?> call) throws Exception {
        threads.submit(() -> {
            tracedHere(tag, call);
            return null;
        }).get(60, TimeUnit.SECONDS);
    }

    public void tracedHere(String tag, Callable<?> call) throws Exception {
        ActiveSpan root = Argus.serverStart("GET", "/test-" + tag, null, null, null);
        long start = System.nanoTime();
        printRoot(tag, root);
        try {
            call.call();
        } finally {
            Argus.serverEnd(root, start, "GET", "/test-" + tag, 200, null);
        }
    }

    /** Under a span that joined an inbound context with a tracestate. */
    public void withInboundTracestate(Callable<?> call) throws Exception {
        String inboundTraceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong() | 1,
                ThreadLocalRandom.current().nextLong());
        System.out.println("INBOUND tag=tracestate traceId=" + inboundTraceId);
        threads.submit(() -> {
            ActiveSpan root = Argus.serverStart("GET", "/test-tracestate",
                    "00-" + inboundTraceId + "-b7ad6b7169203331-01", "vendor=argus", null);
            long t0 = System.nanoTime();
            printRoot("tracestate", root);
            try {
                return call.call();
            } finally {
                Argus.serverEnd(root, t0, "GET", "/test-tracestate", 200, null);
            }
        }).get(60, TimeUnit.SECONDS);
    }

    public ExecutorService threads() {
        return threads;
    }

    public static void printRoot(String tag, ActiveSpan root) {
        System.out.println("ROOT tag=" + tag + " traceparent=" + (root == null ? null : root.traceparent()));
    }

    public static void printStatus(String tag, int code, String thread, String body) {
        System.out.println("STATUS tag=" + tag + " code=" + code + " thread=" + thread + " body=" + body);
    }

    public static void printError(String tag, Throwable e) {
        String message = String.valueOf(e.getMessage()).replaceAll("\\s+", "_");
        System.out.println("ERROR tag=" + tag + " class=" + e.getClass().getName() + " message=" + message);
    }

    /** DONE, then the /after marker once every metric recorded so far has been flushed. */
    public static void finish() throws InterruptedException {
        System.out.println("DONE");
        Thread.sleep(1500);
        ActiveSpan after = Argus.serverStart("GET", "/after", null, null, null);
        Argus.serverEnd(after, System.nanoTime(), "GET", "/after", 200, null);
        System.out.println("AFTER");
    }
}
