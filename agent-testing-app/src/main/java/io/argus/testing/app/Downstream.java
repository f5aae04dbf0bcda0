package io.argus.testing.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.HeaderGetter;
import io.argus.bridge.server.ServerCalls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the HTTP client test applications share: a JDK {@code HttpServer} on 127.0.0.1 as the
 * downstream service (it prints every request it receives, with its trace headers), a port nobody
 * listens on, parent spans made by hand through {@link ServerCalls#start} (the client plugins' test
 * agents have no server plugin), and the output lines the ITs parse (agent-testing's ClientAppRun).
 *
 * <p>Downstream paths ({@code tag} is the {@code tag=} query parameter): {@code /ok} and anything not
 * listed (200, body {@code hello-<tag>}), {@code /missing} (404), {@code /fail} (500), {@code /echo}
 * (200, the request body), {@code /redirect} (302 to {@code /ok} with the same query), {@code /slow}
 * (200 after 2 s, for cancelled calls). An application adds or replaces paths with its own
 * {@link Route}s. Requests are served on a pool of threads, so a slow one holds up no other.
 *
 * <p>Output lines:
 * <ul>
 *   <li>{@code SERVER port=<n> closedPort=<n>}, and whatever the application adds</li>
 *   <li>{@code RECEIVED tag=<tag> method=<m> path=<path> traceparent=<value|null> tracestate=<value|null>
 *       x-test=<value|null> body=<request body|->}</li>
 *   <li>{@code ROOT tag=<tag> traceparent=<parent span|null>}</li>
 *   <li>{@code INBOUND tag=<tag> traceId=<id of the inbound trace context>}</li>
 *   <li>{@code STATUS tag=<tag> code=<n> [application's fields] body=<response body>}</li>
 *   <li>{@code ERROR tag=<tag> class=<exception class> message=<message, blanks as _>}</li>
 *   <li>{@code AFTERCALL tag=<tag> traceparent=<request's own header> tracestate=<...>}: the request object after the call</li>
 *   <li>{@code DONE}, then {@code AFTER} once the {@code /after} marker (a server span) is recorded</li>
 * </ul>
 */
public final class Downstream {

    /**
     * Inbound headers of a parent span made by hand. In a class of its own, loaded at the first use: this class
     * must load before the agent has defined the bridge ({@link #start} waits for it).
     */
    private static final class MapHeaders {
        static final HeaderGetter<java.util.Map<String, String>> INSTANCE =
                new HeaderGetter<java.util.Map<String, String>>() {
                    @Override
                    public String get(java.util.Map<String, String> headers, String name) {
                        return headers.get(name);
                    }
                };
    }


    /** One path of the downstream server; the RECEIVED line is printed and the request body read before. */
    public interface Route {
        void serve(HttpExchange exchange, String tag, byte[] requestBody) throws IOException;
    }

    /** One call of the application. */
    public interface Call {
        void run() throws Exception;
    }

    public final int port;
    public final int closedPort;
    public final String base;
    private final HttpHandler handler;

    private Downstream(HttpServer server, HttpHandler handler, int closedPort) {
        this.handler = handler;
        this.port = server.getAddress().getPort();
        this.closedPort = closedPort;
        this.base = "http://127.0.0.1:" + port;
    }

    /** Starts the server with the standard paths and prints the SERVER line. */
    public static Downstream start() throws IOException {
        Downstream downstream = create(Collections.<String, Route>emptyMap());
        downstream.printServer();
        return downstream;
    }

    /** Starts the server with the standard paths plus {@code routes}; the application prints the SERVER line. */
    public static Downstream create(Map<String, Route> routes) throws IOException {
        AgentBridge.await(); // it names the bridge
        Map<String, Route> all = new HashMap<>();
        all.put("/slow", (exchange, tag, body) -> {
            sleep(2000);
            respond(exchange, 200, hello(tag));
        });
        all.put("/echo", (exchange, tag, body) -> respond(exchange, 200, body));
        all.put("/redirect", (exchange, tag, body) -> {
            exchange.getResponseHeaders().set("Location", "/ok?" + exchange.getRequestURI().getRawQuery());
            respond(exchange, 302, hello(tag));
        });
        all.putAll(routes);
        HttpHandler handler = exchange -> serve(exchange, all);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.createContext("/", handler);
        server.setExecutor(Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "downstream");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        return new Downstream(server, handler, closedPort);
    }

    /** The server's handling, to serve the same paths on another server (HTTPS, say). */
    public HttpHandler handler() {
        return handler;
    }

    /** {@code SERVER port=<n> closedPort=<n>} followed by {@code fields} ("name=value"). */
    public void printServer(String... fields) {
        StringBuilder line = new StringBuilder("SERVER port=").append(port).append(" closedPort=").append(closedPort);
        for (String field : fields) {
            line.append(' ').append(field);
        }
        System.out.println(line);
    }

    public String url(String path, String tag) {
        return base + path + "?tag=" + tag;
    }

    public String refusedUrl(String tag) {
        return "http://127.0.0.1:" + closedPort + "/refused?tag=" + tag;
    }

    private static void serve(HttpExchange exchange, Map<String, Route> routes) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        String tag = query != null && query.startsWith("tag=") ? query.substring(4) : "?";
        String path = exchange.getRequestURI().getPath();
        byte[] requestBody = readAll(exchange.getRequestBody());
        System.out.println("RECEIVED tag=" + tag + " method=" + exchange.getRequestMethod() + " path=" + path
                + " traceparent=" + exchange.getRequestHeaders().getFirst("traceparent")
                + " tracestate=" + exchange.getRequestHeaders().getFirst("tracestate")
                + " x-test=" + exchange.getRequestHeaders().getFirst("x-test")
                + " body=" + (requestBody.length == 0 ? "-" : new String(requestBody, StandardCharsets.UTF_8)));
        Route route = routes.get(path);
        if (route != null) {
            route.serve(exchange, tag, requestBody);
        } else {
            respond(exchange, path.equals("/missing") ? 404 : path.equals("/fail") ? 500 : 200, hello(tag));
        }
    }

    public static byte[] hello(String tag) {
        return ("hello-" + tag).getBytes(StandardCharsets.UTF_8);
    }

    public static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    // ---- the calling side

    /** Runs {@code call} under a hand-made, sampled server span, as a server plugin would; an exception becomes an ERROR line. */
    public static void traced(String tag, Call call) {
        run(tag, ServerCalls.start("GET", "/test-" + tag, null, null), call);
    }

    /**
     * Runs {@code call} under a server span that joined an inbound sampled context with a tracestate;
     * prints {@code INBOUND} with the inbound trace id.
     */
    public static void tracedWithState(String tag, String tracestate, Call call) {
        String traceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong() | 1,
                ThreadLocalRandom.current().nextLong());
        System.out.println("INBOUND tag=" + tag + " traceId=" + traceId);
        java.util.Map<String, String> inbound = new java.util.HashMap<String, String>();
        inbound.put("traceparent", "00-" + traceId + "-b7ad6b7169203331-01");
        if (tracestate != null) {
            inbound.put("tracestate", tracestate);
        }
        run(tag, ServerCalls.start("GET", "/test-" + tag, inbound, MapHeaders.INSTANCE), call);
    }

    private static void run(String tag, ActiveSpan root, Call call) {
        long start = System.nanoTime();
        System.out.println("ROOT tag=" + tag + " traceparent=" + (root == null ? null : root.traceparent()));
        try {
            call.run();
        } catch (Exception e) {
            error(tag, e);
        } finally {
            ServerCalls.end(root, start, "GET", "/test-" + tag, 200, null);
        }
    }

    /** Runs {@code call} without any current span; an exception becomes an ERROR line. */
    public static void plain(String tag, Call call) {
        try {
            call.run();
        } catch (Exception e) {
            error(tag, e);
        }
    }

    /** {@code STATUS tag=<tag> code=<code> <fields...> body=<body>}, fields as "name=value". */
    public static void status(String tag, int code, String body, String... fields) {
        StringBuilder line = new StringBuilder("STATUS tag=").append(tag).append(" code=").append(code);
        for (String field : fields) {
            line.append(' ').append(field);
        }
        System.out.println(line.append(" body=").append(body));
    }

    public static void error(String tag, Throwable e) {
        System.out.println("ERROR tag=" + tag + " class=" + e.getClass().getName() + " message="
                + String.valueOf(e.getMessage()).replaceAll("\\s+", "_"));
    }

    public static void afterCall(String tag, String traceparent, String tracestate) {
        System.out.println("AFTERCALL tag=" + tag + " traceparent=" + traceparent + " tracestate=" + tracestate);
    }

    /**
     * Waits (up to 30 s) for the file named by {@code -Dargus.test.gate}, if any: the test creates it once
     * the agent is connected to the collector, since spans recorded before that could be dropped by design.
     */
    public static void awaitGate() throws InterruptedException {
        String gate = System.getProperty("argus.test.gate");
        if (gate == null) {
            return;
        }
        Path file = Paths.get(gate);
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /**
     * Prints DONE, then records a marker well after the last call: once the collector shows it, every
     * metric of the calls before has been flushed (the test agent flushes metrics every second). Then
     * waits for the test to stop the application.
     */
    public static void finish() throws InterruptedException {
        System.out.println("DONE");
        Thread.sleep(1500);
        ActiveSpan after = ServerCalls.start("GET", "/after", null, null);
        ServerCalls.end(after, System.nanoTime(), "GET", "/after", 200, null);
        System.out.println("AFTER");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n; (n = in.read(buffer)) != -1; ) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
