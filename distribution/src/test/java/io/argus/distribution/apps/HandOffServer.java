package io.argus.distribution.apps;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The JDK's HTTP server on {@code --port}, whose {@code /hop} hands its work to a thread pool: the pool's thread
 * calls {@code /leaf} of the same server with the JDK's HTTP client, and {@code /hop} answers with what came back.
 * Traced, a request to {@code /hop} is three spans, joined only if the trace context crossed to the pool thread.
 * The HTTP client is made on the first {@code /hop}: a start that never serves one never loads it.
 */
public final class HandOffServer {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);
    private static volatile HttpClient client;

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.createContext("/leaf", exchange -> reply(exchange, 200, "leaf"));
        server.createContext("/hop", exchange -> {
            Future<String> called = POOL.submit(() -> callLeaf(port));
            try {
                reply(exchange, 200, "hop -> " + called.get());
            } catch (Exception e) {
                reply(exchange, 502, e.toString());
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        System.out.println("LISTENING " + port);
    }

    private static String callLeaf(int port) throws IOException, InterruptedException {
        HttpClient made = client;
        if (made == null) {
            synchronized (HandOffServer.class) {
                if (client == null) {
                    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                            .connectTimeout(Duration.ofSeconds(5)).build();
                }
                made = client;
            }
        }
        HttpResponse<String> response = made.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/leaf"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
