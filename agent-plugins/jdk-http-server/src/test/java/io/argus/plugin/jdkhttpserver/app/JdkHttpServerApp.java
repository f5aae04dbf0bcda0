package io.argus.plugin.jdkhttpserver.app;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.testing.app.ClassVisibility;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * The JDK's HttpServer on one worker thread, so a context left behind by one request would be seen by
 * the next: {@code /hello/*} 200, {@code /fail} 500, {@code /boom} throws (an application filter turns
 * it into a 500, as frameworks on this server do), {@code /child} makes a client span through the
 * bridge, {@code /ctx} 200 when no context is current, else 409; anything else 404.
 */
public final class JdkHttpServerApp {

    public static void main(String[] args) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newSingleThreadExecutor());
        server.createContext("/", JdkHttpServerApp::handle).getFilters().add(new Filter() {
            @Override
            public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
                try {
                    chain.doFilter(exchange);
                } catch (RuntimeException e) {
                    reply(exchange, 500, "error");
                }
            }

            @Override
            public String description() {
                return "errors to 500";
            }
        });
        server.start();
        ClassVisibility.print(JdkHttpServerApp.class);
        System.out.println("READY port=" + server.getAddress().getPort());
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.startsWith("/hello")) {
            reply(exchange, 200, "hello");
        } else if (path.equals("/fail")) {
            reply(exchange, 500, "failed");
        } else if (path.equals("/boom")) {
            throw new IllegalStateException("boom");
        } else if (path.equals("/child")) {
            long start = System.nanoTime();
            ActiveSpan child = ClientCalls.start("GET", "downstream", 80, "http://downstream/");
            ClientCalls.end(child, start, "GET", "downstream", 200, null);
            reply(exchange, 200, "child");
        } else if (path.equals("/ctx")) {
            reply(exchange, TraceContext.current() == null ? 200 : 409, "ctx");
        } else {
            reply(exchange, 404, "missing");
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
