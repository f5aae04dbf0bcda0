package io.argus.plugin.undertow.app;

import io.argus.bridge.ActiveSpan;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.testing.app.ClassVisibility;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.PathHandler;
import io.undertow.server.handlers.ResponseCodeHandler;
import io.undertow.util.SameThreadExecutor;

import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An Undertow core application (plain {@code HttpHandler}s, no servlets), run in a forked JVM under
 * the agent. Handlers move from the I/O thread to the worker pool as real applications do. Endpoints:
 * {@code /hello} and {@code /hello/*} (200), {@code /fail} (500 set by the handler), {@code /boom} (the
 * handler throws), {@code /async} (answered {@value #ASYNC_DELAY_MS} ms later from another thread),
 * {@code /asyncdispatch} (dispatched back to a worker {@value #ASYNC_DELAY_MS} ms later, where it makes a
 * client span), {@code /child} (makes a client span through the bridge, as an HTTP client plugin would),
 * {@code /ctx} (200 when no trace context is current on the worker, 409 otherwise); anything else is 404.
 * One I/O thread and one worker thread serve every request, so a context left behind would be seen.
 */
public final class UndertowApp {

    static final long ASYNC_DELAY_MS = 200;

    private UndertowApp() {
    }

    public static void main(String[] args) {
        boolean recordStartTime = args.length > 0 && args[0].equals("--record-request-start-time");
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "app-async");
            t.setDaemon(true);
            return t;
        });
        PathHandler paths = new PathHandler(ResponseCodeHandler.HANDLE_404);
        paths.addPrefixPath("/hello", onWorker(exchange -> exchange.getResponseSender().send("hello")));
        paths.addExactPath("/fail", onWorker(exchange -> {
            exchange.setStatusCode(500);
            exchange.getResponseSender().send("failed");
        }));
        paths.addExactPath("/boom", onWorker(exchange -> {
            throw new IllegalStateException("boom");
        }));
        paths.addExactPath("/async", exchange -> exchange.dispatch(SameThreadExecutor.INSTANCE, () ->
                later.schedule(() -> exchange.getResponseSender().send("async"), ASYNC_DELAY_MS, TimeUnit.MILLISECONDS)));
        HttpHandler dispatched = exchange -> {
            clientCall();
            exchange.getResponseSender().send("dispatched");
        };
        paths.addExactPath("/asyncdispatch", exchange -> exchange.dispatch(SameThreadExecutor.INSTANCE, () ->
                later.schedule(() -> {
                    exchange.dispatch(dispatched);
                }, ASYNC_DELAY_MS, TimeUnit.MILLISECONDS)));
        paths.addExactPath("/child", onWorker(exchange -> {
            clientCall();
            exchange.getResponseSender().send("child");
        }));
        paths.addExactPath("/ctx", onWorker(exchange -> {
            exchange.setStatusCode(TraceContext.current() == null ? 200 : 409);
            exchange.endExchange();
        }));

        Undertow server = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setIoThreads(1)
                .setWorkerThreads(1)
                .setServerOption(UndertowOptions.RECORD_REQUEST_START_TIME, recordStartTime)
                .setHandler(paths)
                .build();
        server.start();
        int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
        ClassVisibility.print(UndertowApp.class);
        System.out.println("READY port=" + port + " undertow=" + io.undertow.Version.getVersionString());
    }

    /** Runs {@code handler} on a worker thread, as blocking application handlers do. */
    static HttpHandler onWorker(HttpHandler handler) {
        return exchange -> {
            if (exchange.isInIoThread()) {
                exchange.dispatch(handler);
                return;
            }
            handler.handleRequest(exchange);
        };
    }

    /** What an HTTP client plugin does around an outgoing call. */
    static void clientCall() {
        long start = System.nanoTime();
        ActiveSpan span = ClientCalls.start("GET", "downstream.test", 80, "http://downstream.test/child");
        ClientCalls.end(span, start, "GET", "downstream.test", 200, null);
    }
}
