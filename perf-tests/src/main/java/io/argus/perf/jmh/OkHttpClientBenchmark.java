package io.argus.perf.jmh;

import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * OkHttp calls to the allocation-free loopback server, in JVMs without the agent, at 0% and at 100%
 * (see {@link ProbeCostMain}); the okhttp plugin's probes run on every call:
 * <ul>
 *   <li>{@link #okHttpExecute}: {@code newCall(request).execute()} on the benchmark thread;</li>
 *   <li>{@link #okHttpEnqueue}: {@code newCall(request).enqueue(callback)}, then waits for the
 *       callback, which runs on a dispatcher thread: the {@code enqueue} and {@code AsyncCall.run}
 *       probes plus the thread hand-off.</li>
 * </ul>
 * At 100% the benchmark thread holds an open server span, so {@code enqueue} carries it to the
 * dispatcher thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class OkHttpClientBenchmark {

    private TinyHttpServer server;
    private OkHttpClient client;
    private Request request;
    private final Semaphore delivered = new Semaphore(0);
    private volatile int lastStatus;
    private final Callback callback = new Callback() {
        @Override
        public void onFailure(Call call, IOException e) {
            lastStatus = -1;
            delivered.release();
        }

        @Override
        public void onResponse(Call call, Response response) throws IOException {
            try (Response r = response) {
                r.body().bytes();
                lastStatus = r.code();
            } finally {
                delivered.release();
            }
        }
    };

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        server = TinyHttpServer.start();
        client = new OkHttpClient();
        request = new Request.Builder().url("http://127.0.0.1:" + server.port() + "/bench").build();
        if (Boolean.getBoolean("bench.openSpan")) {
            ProbeCostBenchmark.openServerSpan();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
        server.close();
    }

    @Benchmark
    public int okHttpExecute() throws IOException {
        try (Response response = client.newCall(request).execute()) {
            response.body().bytes();
            return response.code();
        }
    }

    @Benchmark
    public int okHttpEnqueue() throws InterruptedException {
        client.newCall(request).enqueue(callback);
        delivered.acquire();
        return lastStatus;
    }
}
