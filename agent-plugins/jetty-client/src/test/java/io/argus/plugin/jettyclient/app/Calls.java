package io.argus.plugin.jettyclient.app;

import io.argus.testing.app.Downstream;

import java.io.IOException;
import java.util.Collections;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the Jetty 9.4 and Jetty 12 test applications share besides agent-testing-app's {@link Downstream}
 * (whose output lines they print, STATUS with {@code thread=<sync|async>}): how many calls of each kind
 * they make, and the worker threads their traced calls run on. The downstream server's
 * {@code /redirect} answers 302 to {@code /ok?tag=<tag>-target}.
 */
public final class Calls {

    public static final int PLAIN_CALLS = 5;
    public static final int ASYNC_PLAIN_CALLS = 3;
    public static final int CONCURRENT_THREADS = 4;
    public static final int CONCURRENT_CALLS = 5;

    private static final ExecutorService THREADS = Executors.newFixedThreadPool(CONCURRENT_THREADS);

    private Calls() {
    }

    /** Starts the downstream server, prints its SERVER line, and waits for the test's gate. */
    public static Downstream startDownstream() throws IOException, InterruptedException {
        Downstream downstream = Downstream.create(Collections.singletonMap("/redirect", (exchange, tag, body) -> {
            exchange.getResponseHeaders().add("Location", "/ok?tag=" + tag + "-target");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        }));
        downstream.printServer();
        Downstream.awaitGate();
        return downstream;
    }

    /** Runs {@code call} on a worker thread under a fresh hand-made server span. */
    public static void traced(String tag, Downstream.Call call) throws Exception {
        THREADS.submit(() -> Downstream.traced(tag, call)).get(60, TimeUnit.SECONDS);
    }

    /** Runs {@code call} on a worker thread under a span that joined an inbound context with a tracestate. */
    public static void withInboundTracestate(Downstream.Call call) throws Exception {
        THREADS.submit(() -> Downstream.tracedWithState("tracestate", "vendor=argus", call)).get(60, TimeUnit.SECONDS);
    }

    public static ExecutorService threads() {
        return THREADS;
    }

    /** {@code STATUS tag=<tag> code=<n> thread=<sync|async> body=<body>} */
    public static void status(String tag, int code, String thread, String body) {
        Downstream.status(tag, code, body, "thread=" + thread);
    }
}
