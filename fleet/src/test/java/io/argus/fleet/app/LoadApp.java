package io.argus.fleet.app;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A service under load, run with the agent: an HTTP server (JDK) called over HttpURLConnection from
 * {@code threads} threads for {@code seconds} seconds; each request the server handles makes a server span (the
 * calls start no trace of their own, so they add no client span). Prints
 * {@code LOAD DONE requests=N failures=F handled=H} (H: requests the server handled, the spans made) and then idles
 * (the agent keeps sending heartbeats) until killed.
 *
 * <p>Arguments: {@code seconds threads}.
 */
public final class LoadApp {
    private LoadApp() {
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        int threads = Integer.parseInt(args[1]);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        AtomicLong handled = new AtomicLong();
        server.createContext("/work", exchange -> {
            handled.incrementAndGet();
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(threads));
        server.start();
        URL url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/work");
        System.out.println("LOAD STARTED");
        AtomicLong requests = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] workers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            workers[i] = new Thread(() -> {
                while (System.nanoTime() < end) {
                    try {
                        HttpURLConnection c = (HttpURLConnection) url.openConnection();
                        try (InputStream in = c.getInputStream()) {
                            in.readAllBytes();
                        }
                        requests.incrementAndGet();
                    } catch (Exception e) {
                        failures.incrementAndGet();
                    }
                }
            }, "load-" + i);
            workers[i].start();
        }
        for (Thread t : workers) {
            t.join();
        }
        System.out.println("LOAD DONE requests=" + requests.get() + " failures=" + failures.get() + " handled="
                + handled.get());
        Thread.sleep(Long.MAX_VALUE);
    }
}
