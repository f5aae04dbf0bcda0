package io.argus.plugin.netty3.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;
import org.jboss.netty.handler.codec.http.HttpMethod;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The application under test, forked with the agent: a {@link DruidStyleClient} (Netty 3, built like
 * Apache Druid's {@code NettyHttpClient}) calling a JDK {@code HttpServer} on 127.0.0.1 that prints
 * the trace headers it receives. Calls are made on "query" threads, as Druid's broker does, each
 * under a server span started by hand through {@link Argus#serverStart} (the test agent has no
 * server plugin), so the client span has a parent. Output lines:
 * <ul>
 *   <li>{@code SERVER port=<n> closedPort=<n> pipelinePort=<n>}</li>
 *   <li>{@code RECEIVED tag=<tag> method=<m> traceparent=<value|null> tracestate=<value|null> x-test=<value>}</li>
 *   <li>{@code ROOT tag=<tag> traceparent=<parent span|null>}</li>
 *   <li>{@code INBOUND tag=tracestate traceId=<id>}</li>
 *   <li>{@code STATUS tag=<tag> code=<n> chunks=<n> length=<body length> channel=<id> body=<body, if short>}</li>
 *   <li>{@code ERROR tag=<tag> class=<exception class> message=<message without spaces>}</li>
 *   <li>{@code DONE}, then {@code AFTER} once the {@code /after} marker (a server span) is recorded</li>
 * </ul>
 */
public final class Netty3ClientApp {

    public static final int PLAIN_CALLS = 5;
    public static final int CONCURRENT_THREADS = 4;
    public static final int CONCURRENT_CALLS = 5;
    public static final int PIPELINED = 6;
    public static final int BIG_BODY = 20_000;
    public static final long CHUNK_PAUSE_MS = 300;

    private static final ExecutorService QUERY_THREADS = Executors.newFixedThreadPool(CONCURRENT_THREADS);

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", Netty3ClientApp::serve);
        server.start();
        int port = server.getAddress().getPort();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        ServerSocket pipelineServer = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread pipelineThread = new Thread(() -> servePipelined(pipelineServer), "pipeline-server");
        pipelineThread.setDaemon(true);
        pipelineThread.start();
        System.out.println("SERVER port=" + port + " closedPort=" + closedPort + " pipelinePort=" + pipelineServer.getLocalPort());
        String base = "http://127.0.0.1:" + port;
        awaitGate();

        try (DruidStyleClient client = new DruidStyleClient()) {
            // 1. traced calls: fixed length, chunked with a pause between chunks, a body larger than
            //    the decoder's chunk size, a POST, error statuses, a connection closed without response
            traced("traced", () -> call(client, HttpMethod.GET, base + "/ok?tag=traced", "traced", null));
            traced("chunked", () -> call(client, HttpMethod.GET, base + "/chunked?tag=chunked", "chunked", null));
            traced("big", () -> call(client, HttpMethod.GET, base + "/big?tag=big", "big", null));
            traced("post", () -> call(client, HttpMethod.POST, base + "/echo?tag=post", "post",
                    "payload".getBytes(StandardCharsets.UTF_8)));
            traced("head", () -> call(client, HttpMethod.HEAD, base + "/ok?tag=head", "head", null));
            traced("nocontent", () -> call(client, HttpMethod.GET, base + "/nocontent?tag=nocontent", "nocontent", null));
            traced("missing", () -> call(client, HttpMethod.GET, base + "/missing?tag=missing", "missing", null));
            traced("fail", () -> call(client, HttpMethod.GET, base + "/fail?tag=fail", "fail", null));
            traced("reset", () -> call(client, HttpMethod.GET, base + "/reset?tag=reset", "reset", null));
            // 2. a pool channel that cannot connect: Druid fails before writing anything
            traced("refused", () -> call(client, HttpMethod.GET, "http://127.0.0.1:" + closedPort + "/x?tag=refused",
                    "refused", null));
            // 3. calls without a current span, on the same kept-alive connection
            for (int i = 0; i < PLAIN_CALLS; i++) {
                String tag = "plain" + i;
                onQueryThread(() -> call(client, HttpMethod.GET, base + "/ok?tag=" + tag, tag, null));
            }
            // 4. an inbound tracestate is passed on
            String inboundTraceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong() | 1,
                    ThreadLocalRandom.current().nextLong());
            System.out.println("INBOUND tag=tracestate traceId=" + inboundTraceId);
            onQueryThread(() -> {
                ActiveSpan root = Argus.serverStart("GET", "/test-tracestate",
                        "00-" + inboundTraceId + "-b7ad6b7169203331-01", "vendor=argus", null);
                long t0 = System.nanoTime();
                printRoot("tracestate", root);
                try {
                    call(client, HttpMethod.GET, base + "/ok?tag=tracestate", "tracestate", null);
                } finally {
                    Argus.serverEnd(root, t0, "GET", "/test-tracestate", 200, null);
                }
            });
            // 5. concurrent traced calls on several query threads (and so several pooled connections)
            List<Future<?>> concurrent = new ArrayList<>();
            for (int t = 0; t < CONCURRENT_THREADS; t++) {
                int thread = t;
                concurrent.add(QUERY_THREADS.submit(() -> {
                    for (int i = 0; i < CONCURRENT_CALLS; i++) {
                        String tag = "conc" + thread + "_" + i;
                        tracedHere(tag, () -> call(client, HttpMethod.GET, base + "/ok?tag=" + tag, tag, null));
                    }
                }));
            }
            for (Future<?> f : concurrent) {
                f.get(60, TimeUnit.SECONDS);
            }
            // 6. pipelining: more requests in flight on one connection than the plugin's initial ring holds
            traced("pipelined", () -> pipelined(client, pipelineServer.getLocalPort()));
            System.out.println("DONE");
            // a marker recorded well after the last call: once the collector shows it, every metric of
            // the calls above has been flushed (the test agent flushes metrics every second)
            Thread.sleep(1500);
            ActiveSpan after = Argus.serverStart("GET", "/after", null, null, null);
            Argus.serverEnd(after, System.nanoTime(), "GET", "/after", 200, null);
            System.out.println("AFTER");
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** Waits (up to 30 s) for the test to say the agent is connected to the collector. */
    static void awaitGate() throws InterruptedException {
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
        switch (path) {
            case "/chunked": {
                exchange.sendResponseHeaders(200, 0); // chunked transfer encoding
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write("part1-".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    sleep(CHUNK_PAUSE_MS);
                    out.write("part2".getBytes(StandardCharsets.UTF_8));
                }
                return;
            }
            case "/big": {
                byte[] body = new byte[BIG_BODY];
                Arrays.fill(body, (byte) 'x');
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
                return;
            }
            case "/nocontent":
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
                return;
            case "/reset":
                // no response at all: the server closes the connection
                throw new IOException("no response for /reset");
            default:
                break;
        }
        if (exchange.getRequestMethod().equals("HEAD")) {
            // the length of the body a GET would get, and no body
            exchange.getResponseHeaders().add("Content-Length", "11");
            exchange.sendResponseHeaders(200, -1);
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

    /** A minimal HTTP/1.1 server that answers pipelined GETs in order on each connection. */
    private static void servePipelined(ServerSocket server) {
        while (!server.isClosed()) {
            try (Socket socket = server.accept()) {
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
                OutputStream out = socket.getOutputStream();
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.isEmpty()) {
                        continue;
                    }
                    String target = line.split(" ")[1];
                    String traceparent = null;
                    String header;
                    while ((header = in.readLine()) != null && !header.isEmpty()) {
                        int colon = header.indexOf(':');
                        if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("traceparent")) {
                            traceparent = header.substring(colon + 1).trim();
                        }
                    }
                    String tag = target.contains("tag=") ? target.substring(target.indexOf("tag=") + 4) : "?";
                    System.out.println("RECEIVED tag=" + tag + " method=GET traceparent=" + traceparent
                            + " tracestate=null x-test=null");
                    byte[] body = ("hello-" + tag).getBytes(StandardCharsets.UTF_8);
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.write(body);
                    out.flush();
                }
            } catch (IOException e) {
                if (!server.isClosed()) {
                    System.out.println("PIPELINE-SERVER-ERROR " + e);
                }
            }
        }
    }

    private static void pipelined(DruidStyleClient client, int port) {
        List<String> files = new ArrayList<>();
        List<Map<String, String>> headers = new ArrayList<>();
        for (int i = 0; i < PIPELINED; i++) {
            files.add("/ok?tag=pipe" + i);
            headers.add(Collections.emptyMap());
        }
        try {
            List<DruidStyleClient.Result> results = client.pipelined("127.0.0.1", port, files, headers).get(30, TimeUnit.SECONDS);
            for (int i = 0; i < results.size(); i++) {
                DruidStyleClient.Result r = results.get(i);
                System.out.println("STATUS tag=pipe" + i + " code=" + r.status + " chunks=0 length=" + r.body.length()
                        + " channel=" + r.channelId + " body=" + r.body);
            }
        } catch (Exception e) {
            printError("pipelined", e);
        }
    }

    /** Runs a call on a query thread under a fresh root span (a hand-made server span). */
    private static void traced(String tag, Runnable call) throws Exception {
        onQueryThread(() -> tracedHere(tag, call));
    }

    private static void tracedHere(String tag, Runnable call) {
        ActiveSpan root = Argus.serverStart("GET", "/test-" + tag, null, null, null);
        long start = System.nanoTime();
        printRoot(tag, root);
        try {
            call.run();
        } finally {
            Argus.serverEnd(root, start, "GET", "/test-" + tag, 200, null);
        }
    }

    private static void onQueryThread(Runnable task) throws Exception {
        QUERY_THREADS.submit(task).get(60, TimeUnit.SECONDS);
    }

    private static void printRoot(String tag, ActiveSpan root) {
        System.out.println("ROOT tag=" + tag + " traceparent=" + (root == null ? null : root.traceparent()));
    }

    private static void call(DruidStyleClient client, HttpMethod method, String url, String tag, byte[] body) {
        try {
            CompletableFuture<DruidStyleClient.Result> future = client.go(method, new URL(url),
                    Collections.singletonMap("x-test", tag), body);
            DruidStyleClient.Result r = future.get(30, TimeUnit.SECONDS);
            System.out.println("STATUS tag=" + tag + " code=" + r.status + " chunks=" + r.chunks + " length=" + r.body.length()
                    + " channel=" + r.channelId + " body=" + (r.body.length() <= 40 ? r.body : "(long)"));
        } catch (ExecutionException e) {
            printError(tag, e.getCause());
        } catch (Exception e) {
            printError(tag, e);
        }
    }

    private static void printError(String tag, Throwable e) {
        String message = String.valueOf(e.getMessage()).replaceAll("\\s+", "_");
        System.out.println("ERROR tag=" + tag + " class=" + e.getClass().getName() + " message=" + message);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
