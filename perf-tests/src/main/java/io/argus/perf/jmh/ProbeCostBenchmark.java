package io.argus.perf.jmh;

import com.sun.net.httpserver.HttpServer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The per-call cost of one server probe, one client probe and the executors probes. The same
 * benchmarks run in JVMs without the agent, with it at 0% sampling and at 100% (see
 * {@link ProbeCostMain}, which passes {@code -javaagent} and the settings to each fork):
 * <ul>
 *   <li>{@link #serverRequest}: Jetty 12 serves one HTTP/1.1 request through a
 *       {@code LocalConnector} (the whole server stack, parser to response, without sockets); the
 *       jetty plugin's probes on {@code Server.handle} and {@code HttpChannelState.completeStream} run.</li>
 *   <li>{@link #clientRequest}: {@code HttpURLConnection} GET to a JDK {@code HttpServer} on
 *       loopback, keep-alive; the http-url-connection plugin's probes run.</li>
 *   <li>{@link #executorSubmit}: {@code submit(callable).get()} on a one-thread
 *       {@code ThreadPoolExecutor}: the {@code FutureTask} and {@code execute} probes plus the
 *       thread hand-off.</li>
 *   <li>{@link #futureTaskInline} and {@link #forkJoinInline}: the {@code FutureTask} constructor
 *       probe and the {@code ForkJoinTask.doExec} probe alone, run on the calling thread.</li>
 *   <li>{@link #virtualThreadStart}: starts a virtual thread and joins it: the
 *       {@code VirtualThread.start} and {@code run(Runnable)} probes plus the scheduler's own
 *       submission (which the {@code ForkJoinPool} probes leave alone). JDK 21+ only: on an older JDK
 *       it does nothing, so compare it only from JVMs on 21 or later.</li>
 * </ul>
 * At 100% the benchmark thread holds an open server span (started through the bridge by
 * reflection, as the application has no compile-time view of the agent), so client calls and
 * submitted tasks are traced as they would be inside a traced request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProbeCostBenchmark {

    private static final String REQUEST = "GET /bench HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private Server jetty;
    private LocalConnector local;
    private HttpServer backend;
    private URL backendUrl;
    private ThreadPoolExecutor pool;
    private final Callable<Integer> callable = () -> 42;
    private final Runnable noop = () -> { };
    /** {@code Thread.startVirtualThread(Runnable)} on JDK 21+ (this module compiles for 17), else null. */
    private static final MethodHandle START_VIRTUAL_THREAD = startVirtualThread();
    private final byte[] buffer = new byte[256];

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        jetty = new Server();
        local = new LocalConnector(jetty);
        jetty.addConnector(local);
        jetty.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                callback.succeeded();
                return true;
            }
        });
        jetty.start();

        // without TCP_NODELAY the JDK server's separate header and body writes meet delayed ACKs: 40 ms a call
        System.setProperty("sun.net.httpserver.nodelay", "true");
        backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        backend.createContext("/", exchange -> {
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        backend.start();
        backendUrl = new URL("http://127.0.0.1:" + backend.getAddress().getPort() + "/bench");

        pool = new ThreadPoolExecutor(1, 1, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>());
        pool.prestartAllCoreThreads();

        if (Boolean.getBoolean("bench.openSpan")) {
            openServerSpan();
        }
    }

    /** Makes a sampled server span current on this (the benchmark) thread, through the agent's bridge. */
    static void openServerSpan() throws Exception {
        Class<?> server = Class.forName("io.argus.bridge.server.ServerCalls", true, null);
        Method start = server.getMethod("start", String.class, String.class, Object.class,
                Class.forName("io.argus.bridge.HeaderGetter", true, null));
        if (start.invoke(null, "GET", "/benchmark", null, null) == null) {
            throw new IllegalStateException("no span: run with argus.tracing.samplingRate=100");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        jetty.stop();
        backend.stop(0);
        pool.shutdownNow();
    }

    @Benchmark
    public String serverRequest() throws Exception {
        return local.getResponse(REQUEST);
    }

    @Benchmark
    public int clientRequest() throws Exception {
        HttpURLConnection connection = (HttpURLConnection) backendUrl.openConnection();
        int status = connection.getResponseCode();
        try (InputStream in = connection.getInputStream()) {
            while (in.read(buffer) > 0) {
                // drain, so the connection goes back to the keep-alive cache
            }
        }
        return status;
    }

    @Benchmark
    public Integer executorSubmit() throws Exception {
        return pool.submit(callable).get();
    }

    @Benchmark
    public Integer futureTaskInline() throws Exception {
        FutureTask<Integer> task = new FutureTask<>(callable);
        task.run();
        return task.get();
    }

    @Benchmark
    public Integer forkJoinInline() {
        return new Leaf().invoke();
    }

    @Benchmark
    public Thread virtualThreadStart() throws Throwable {
        if (START_VIRTUAL_THREAD == null) {
            return null;
        }
        Thread thread = (Thread) START_VIRTUAL_THREAD.invokeExact(noop);
        thread.join();
        return thread;
    }

    private static MethodHandle startVirtualThread() {
        try {
            return MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
                    MethodType.methodType(Thread.class, Runnable.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    /** A fork/join task run on the calling thread: {@code invoke()} goes through {@code doExec()}. */
    static final class Leaf extends RecursiveTask<Integer> {
        @Override
        protected Integer compute() {
            return 42;
        }
    }
}
