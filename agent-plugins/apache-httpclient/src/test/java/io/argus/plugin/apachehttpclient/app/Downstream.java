package io.argus.plugin.apachehttpclient.app;

import com.sun.net.httpserver.HttpServer;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the test applications share: a JDK {@code HttpServer} on 127.0.0.1 as the downstream service
 * (it prints every trace header it receives), a port nobody listens on, parent spans made by hand
 * through {@link Argus#serverStart} (the test agent has no server plugin), and the output protocol the
 * ITs parse.
 *
 * <p>Downstream paths: {@code /ok} (200, body {@code hello-<tag>}), {@code /missing} (404),
 * {@code /fail} (500), {@code /redirect} (302 to {@code /ok} with the same query), {@code /slow} (200
 * after 2 s, for cancelled calls). The tag is the {@code tag=} query parameter. Requests are served on
 * a pool of threads, so a slow one holds up no other.
 *
 * <p>Output lines:
 * <ul>
 *   <li>{@code SERVER port=<n> closedPort=<n>}</li>
 *   <li>{@code RECEIVED tag=<tag> path=<path> traceparent=<value|null> tracestate=<value|null> x-test=<value|null>}</li>
 *   <li>{@code ROOT tag=<tag> traceparent=<parent span>}</li>
 *   <li>{@code STATUS tag=<tag> code=<n> body=<response body>}</li>
 *   <li>{@code ERROR tag=<tag> class=<exception class> message=<message>}</li>
 *   <li>{@code AFTERCALL tag=<tag> traceparent=<request's own header> tracestate=<...>}: the request object after the call</li>
 *   <li>{@code DONE}, then {@code AFTER} once the {@code /after} marker (a server span) is recorded</li>
 * </ul>
 */
public final class Downstream {

    public final int port;
    public final int closedPort;
    public final String base;
    private final HttpServer server;

    public interface Call {
        void run() throws Exception;
    }

    private Downstream(HttpServer server, int closedPort) {
        this.server = server;
        this.port = server.getAddress().getPort();
        this.closedPort = closedPort;
        this.base = "http://127.0.0.1:" + port;
    }

    public static Downstream start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String query = exchange.getRequestURI().getRawQuery();
            String tag = query != null && query.startsWith("tag=") ? query.substring(4) : "?";
            String path = exchange.getRequestURI().getPath();
            System.out.println("RECEIVED tag=" + tag + " path=" + path
                    + " traceparent=" + exchange.getRequestHeaders().getFirst("traceparent")
                    + " tracestate=" + exchange.getRequestHeaders().getFirst("tracestate")
                    + " x-test=" + exchange.getRequestHeaders().getFirst("x-test"));
            exchange.getRequestBody().readAllBytes();
            byte[] body = ("hello-" + tag).getBytes(StandardCharsets.UTF_8);
            int status;
            switch (path) {
                case "/missing":
                    status = 404;
                    break;
                case "/fail":
                    status = 500;
                    break;
                case "/slow":
                    status = 200;
                    try {
                        Thread.sleep(2000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    break;
                case "/redirect":
                    status = 302;
                    exchange.getResponseHeaders().set("Location", "/ok?" + query);
                    break;
                default:
                    status = 200;
            }
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Downstream downstream = new Downstream(server, closedPort);
        System.out.println("SERVER port=" + downstream.port + " closedPort=" + closedPort);
        return downstream;
    }

    public String url(String path, String tag) {
        return base + path + "?tag=" + tag;
    }

    public String refusedUrl(String tag) {
        return "http://127.0.0.1:" + closedPort + "/refused?tag=" + tag;
    }

    /** Runs {@code call} under a hand-made, sampled server span, as a server plugin would. */
    public static void traced(String tag, Call call) {
        ActiveSpan root = Argus.serverStart("GET", "/test-" + tag, null, null, null);
        run(tag, root, call);
    }

    /** Runs {@code call} under a server span that joined an inbound sampled context with a tracestate. */
    public static void tracedWithState(String tag, String tracestate, Call call) {
        String traceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong() | 1,
                ThreadLocalRandom.current().nextLong());
        ActiveSpan root = Argus.serverStart("GET", "/test-" + tag, "00-" + traceId + "-b7ad6b7169203331-01",
                tracestate, null);
        run(tag, root, call);
    }

    private static void run(String tag, ActiveSpan root, Call call) {
        long start = System.nanoTime();
        System.out.println("ROOT tag=" + tag + " traceparent=" + (root == null ? null : root.traceparent()));
        try {
            call.run();
        } catch (Exception e) {
            error(tag, e);
        } finally {
            Argus.serverEnd(root, start, "GET", "/test-" + tag, 200, null);
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

    public static void status(String tag, int code, String body) {
        System.out.println("STATUS tag=" + tag + " code=" + code + " body=" + body);
    }

    public static void error(String tag, Throwable e) {
        System.out.println("ERROR tag=" + tag + " class=" + e.getClass().getName() + " message="
                + String.valueOf(e.getMessage()).replace(' ', '_'));
    }

    public static void afterCall(String tag, String traceparent, String tracestate) {
        System.out.println("AFTERCALL tag=" + tag + " traceparent=" + traceparent + " tracestate=" + tracestate);
    }

    /**
     * Prints DONE, then records a marker well after the last call: once the collector shows it, every
     * metric of the calls above has been flushed (the test agent flushes metrics every second).
     */
    public void finish() throws InterruptedException {
        System.out.println("DONE");
        Thread.sleep(1500);
        ActiveSpan after = Argus.serverStart("GET", "/after", null, null, null);
        Argus.serverEnd(after, System.nanoTime(), "GET", "/after", 200, null);
        System.out.println("AFTER");
        Thread.sleep(Long.MAX_VALUE);
        server.stop(0);
    }
}
