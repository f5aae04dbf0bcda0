package io.argus.plugin.netty3.app;

import com.sun.net.httpserver.HttpExchange;
import io.argus.testing.app.Downstream;
import org.jboss.netty.handler.codec.http.HttpMethod;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The application under test, forked with the agent: a {@link DruidStyleClient} (Netty 3, built like
 * Apache Druid's {@code NettyHttpClient}) calling agent-testing-app's {@link Downstream} server, with
 * paths of its own (below). Calls are made on "query" threads, as Druid's broker does, each under a
 * server span started by hand (the test agent has no server plugin), so the client span has a parent.
 * It prints the lines of {@link Downstream}: SERVER also with {@code pipelinePort=<n>}, STATUS with
 * {@code chunks=<n> length=<body length> channel=<id>} and the body only if short.
 *
 * <p>Paths of its own: {@code /chunked} (two chunks, {@value #CHUNK_PAUSE_MS} ms apart), {@code /big}
 * ({@value #BIG_BODY} bytes), {@code /nocontent} (204), {@code /reset} (the connection closed without a
 * response), and HEAD on {@code /ok}. A second, minimal server on {@code pipelinePort} answers pipelined
 * GETs in order.
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
        Map<String, Downstream.Route> routes = new HashMap<>();
        routes.put("/chunked", (exchange, tag, body) -> chunked(exchange));
        routes.put("/big", (exchange, tag, body) -> {
            byte[] big = new byte[BIG_BODY];
            Arrays.fill(big, (byte) 'x');
            Downstream.respond(exchange, 200, big);
        });
        routes.put("/nocontent", (exchange, tag, body) -> {
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        routes.put("/reset", (exchange, tag, body) -> {
            // no response at all: the server closes the connection
            throw new IOException("no response for /reset");
        });
        routes.put("/ok", (exchange, tag, body) -> {
            if (exchange.getRequestMethod().equals("HEAD")) {
                // the length of the body a GET would get, and no body
                exchange.getResponseHeaders().add("Content-Length", "11");
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            } else {
                Downstream.respond(exchange, 200, Downstream.hello(tag));
            }
        });
        Downstream downstream = Downstream.create(routes);
        ServerSocket pipelineServer = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        Thread pipelineThread = new Thread(() -> servePipelined(pipelineServer), "pipeline-server");
        pipelineThread.setDaemon(true);
        pipelineThread.start();
        downstream.printServer("pipelinePort=" + pipelineServer.getLocalPort());
        String base = downstream.base;
        int closedPort = downstream.closedPort;
        Downstream.awaitGate();

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
            onQueryThread(() -> Downstream.tracedWithState("tracestate", "vendor=argus",
                    () -> call(client, HttpMethod.GET, base + "/ok?tag=tracestate", "tracestate", null)));
            // 5. concurrent traced calls on several query threads (and so several pooled connections)
            List<Future<?>> concurrent = new ArrayList<>();
            for (int t = 0; t < CONCURRENT_THREADS; t++) {
                int thread = t;
                concurrent.add(QUERY_THREADS.submit(() -> {
                    for (int i = 0; i < CONCURRENT_CALLS; i++) {
                        String tag = "conc" + thread + "_" + i;
                        Downstream.traced(tag, () -> call(client, HttpMethod.GET, base + "/ok?tag=" + tag, tag, null));
                    }
                }));
            }
            for (Future<?> f : concurrent) {
                f.get(60, TimeUnit.SECONDS);
            }
            // 6. pipelining: more requests in flight on one connection than the plugin's initial ring holds
            traced("pipelined", () -> pipelined(client, pipelineServer.getLocalPort()));
            Downstream.finish();
        }
    }

    /** Two chunks (chunked transfer encoding), the second after a pause. */
    private static void chunked(HttpExchange exchange) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write("part1-".getBytes(StandardCharsets.UTF_8));
            out.flush();
            sleep(CHUNK_PAUSE_MS);
            out.write("part2".getBytes(StandardCharsets.UTF_8));
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
                Downstream.status("pipe" + i, r.status, r.body, "chunks=0", "length=" + r.body.length(), "channel=" + r.channelId);
            }
        } catch (Exception e) {
            Downstream.error("pipelined", e);
        }
    }

    /** Runs a call on a query thread under a fresh root span (a hand-made server span). */
    private static void traced(String tag, Downstream.Call call) throws Exception {
        onQueryThread(() -> Downstream.traced(tag, call));
    }

    private static void onQueryThread(Runnable task) throws Exception {
        QUERY_THREADS.submit(task).get(60, TimeUnit.SECONDS);
    }

    private static void call(DruidStyleClient client, HttpMethod method, String url, String tag, byte[] body) {
        try {
            CompletableFuture<DruidStyleClient.Result> future = client.go(method, new URL(url),
                    Collections.singletonMap("x-test", tag), body);
            DruidStyleClient.Result r = future.get(30, TimeUnit.SECONDS);
            Downstream.status(tag, r.status, r.body.length() <= 40 ? r.body : "(long)",
                    "chunks=" + r.chunks, "length=" + r.body.length(), "channel=" + r.channelId);
        } catch (ExecutionException e) {
            Downstream.error(tag, e.getCause());
        } catch (Exception e) {
            Downstream.error(tag, e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
