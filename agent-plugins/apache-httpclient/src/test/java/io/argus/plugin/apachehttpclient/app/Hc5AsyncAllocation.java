package io.argus.plugin.apachehttpclient.app;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Measures what one untraced async GET allocates on the client's threads (the caller and the
 * {@code httpclient-*} I/O reactor threads), for README.md: run it with the agent at sampling 0 and
 * without it, and compare. Not a test; see the README for the command. The server is a minimal
 * keep-alive socket server on its own threads, which are not counted.
 *
 * <p>Prints {@code ALLOCATED round=<n> bytesPerCall=<n>} per round.
 */
public final class Hc5AsyncAllocation {

    private static final int CALLS = 3000;
    private static final int ROUNDS = 3;
    private static final byte[] RESPONSE =
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok".getBytes(StandardCharsets.US_ASCII);

    private Hc5AsyncAllocation() {
    }

    public static void main(String[] args) throws Exception {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> serve(server), "test-server");
        acceptor.setDaemon(true);
        acceptor.start();
        URI uri = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/ok");

        CloseableHttpAsyncClient client = HttpAsyncClients.createDefault();
        client.start();
        for (int i = 0; i < 5 * CALLS; i++) {
            call(client, uri);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int round = 1; round <= ROUNDS; round++) {
            long[] ids = clientThreads();
            long before = sum(threads.getThreadAllocatedBytes(ids));
            for (int i = 0; i < CALLS; i++) {
                call(client, uri);
            }
            long after = sum(threads.getThreadAllocatedBytes(ids));
            System.out.println("ALLOCATED round=" + round + " bytesPerCall=" + (after - before) / CALLS);
        }
        client.close();
        System.exit(0);
    }

    private static void call(CloseableHttpAsyncClient client, URI uri) throws Exception {
        SimpleHttpResponse response = client.execute(new SimpleHttpRequest("GET", uri), null).get(10, TimeUnit.SECONDS);
        if (response.getCode() != 200) {
            throw new IllegalStateException("status " + response.getCode());
        }
    }

    /** This thread and the client's I/O threads. */
    private static long[] clientThreads() {
        List<Long> ids = new ArrayList<>();
        ids.add(Thread.currentThread().getId());
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("httpclient")) {
                ids.add(thread.getId());
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long value : values) {
            total += value;
        }
        return total;
    }

    private static void serve(ServerSocket server) {
        while (true) {
            try {
                Socket socket = server.accept();
                Thread connection = new Thread(() -> keepAlive(socket), "test-server-connection");
                connection.setDaemon(true);
                connection.start();
            } catch (Exception e) {
                return;
            }
        }
    }

    /** Answers every request head on the connection with the same small response. */
    private static void keepAlive(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            int matched = 0;
            int b;
            while ((b = in.read()) >= 0) {
                matched = (b == '\r' || b == '\n') ? matched + 1 : 0;
                if (matched == 4) {
                    out.write(RESPONSE);
                    out.flush();
                    matched = 0;
                }
            }
        } catch (Exception ignored) {
            // the client closed the connection
        }
    }
}
