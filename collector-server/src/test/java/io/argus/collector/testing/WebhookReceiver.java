package io.argus.collector.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP receiver on a free loopback port (the JDK's server): {@code /hook} and {@code /slack} take JSON
 * bodies, {@code /flaky} answers 503 to its first {@link #flakyFailures} posts, {@code /hang} never answers.
 */
public final class WebhookReceiver implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    public record Post(String path, long atMs, JsonNode body) {
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(8);
    private final Map<String, BlockingQueue<Post>> posts = new ConcurrentHashMap<>();
    public final AtomicInteger hangs = new AtomicInteger();
    public final AtomicInteger flakyFailures = new AtomicInteger();

    public WebhookReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.setExecutor(threads);
        server.createContext("/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            String path = ex.getRequestURI().getPath();
            if (path.equals("/hang")) {
                hangs.incrementAndGet();
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                ex.close();
                return;
            }
            if (path.equals("/flaky") && flakyFailures.getAndDecrement() > 0) {
                ex.sendResponseHeaders(503, -1);
                ex.close();
                return;
            }
            queue(path).add(new Post(path, System.currentTimeMillis(), JSON.readTree(body)));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** The next post to {@code path} within the timeout; {@code null} when none came. */
    public Post next(String path, long timeoutMs) throws InterruptedException {
        return queue(path).poll(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private BlockingQueue<Post> queue(String path) {
        return posts.computeIfAbsent(path, k -> new LinkedBlockingQueue<>());
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
