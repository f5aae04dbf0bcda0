package io.argus.perf.jmh;

import org.eclipse.jetty.client.HttpClient;
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
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Whole synchronous requests of Jetty's {@code HttpClient} ({@code newRequest(url).send()}), the
 * jetty-client plugin's probes on {@code HttpExchange}'s constructor and on the completion
 * notification included, in JVMs without the agent, at 0% and at 100% (see {@link ProbeCostMain}):
 * <ul>
 *   <li>{@link #jetty12ClientRequest}: Jetty 12 ({@code jetty12.version}, on the class path);</li>
 *   <li>{@link #jetty9ClientRequest}: Jetty 9.4 ({@code jetty9.version}, Druid's), loaded from
 *       {@code target/jetty9-client/} in a class loader of its own (its class names are Jetty 12's)
 *       and called through method handles.</li>
 * </ul>
 * The server is a minimal keep-alive HTTP/1.1 responder on loopback that allocates nothing per
 * request, so that the bytes per operation (which JMH's GC profiler sums over all threads) are the
 * client's: the calling thread, which creates the exchange, and Jetty's threads, which read the
 * response and complete it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JettyClientBenchmark {

    /** The loopback server, and at 100% the benchmark thread's open server span. */
    @State(Scope.Thread)
    public static class Backend {
        TinyHttpServer server;
        String url;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            server = TinyHttpServer.start();
            url = "http://127.0.0.1:" + server.port() + "/bench";
            if (Boolean.getBoolean("bench.openSpan")) {
                ProbeCostBenchmark.openServerSpan();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            server.close();
        }
    }

    @State(Scope.Thread)
    public static class Jetty12 {
        HttpClient client;

        @Setup(Level.Trial)
        public void setUp() throws Exception {
            client = new HttpClient();
            client.start();
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            client.stop();
        }
    }

    /** Jetty 9.4's client, driven through method handles typed on Object (no boxing, no varargs). */
    @State(Scope.Thread)
    public static class Jetty9 {
        URLClassLoader loader;
        Object client;
        MethodHandle newRequest;
        MethodHandle send;
        MethodHandle status;

        @Setup(Level.Trial)
        public void setUp() throws Throwable {
            Path jars = jetty9Jars();
            List<URL> urls = new ArrayList<>();
            try (Stream<Path> files = Files.list(jars)) {
                for (Path jar : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".jar")).sorted()::iterator) {
                    urls.add(jar.toUri().toURL());
                }
            }
            loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
            Class<?> clientClass = loader.loadClass("org.eclipse.jetty.client.HttpClient");
            Class<?> requestClass = loader.loadClass("org.eclipse.jetty.client.api.Request");
            Class<?> contentResponseClass = loader.loadClass("org.eclipse.jetty.client.api.ContentResponse");
            Class<?> responseClass = loader.loadClass("org.eclipse.jetty.client.api.Response");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            client = clientClass.getConstructor().newInstance();
            clientClass.getMethod("start").invoke(client);
            newRequest = lookup.findVirtual(clientClass, "newRequest", MethodType.methodType(requestClass, String.class))
                    .asType(MethodType.methodType(Object.class, Object.class, String.class));
            send = lookup.findVirtual(requestClass, "send", MethodType.methodType(contentResponseClass))
                    .asType(MethodType.methodType(Object.class, Object.class));
            status = lookup.findVirtual(responseClass, "getStatus", MethodType.methodType(int.class))
                    .asType(MethodType.methodType(int.class, Object.class));
        }

        @TearDown(Level.Trial)
        public void tearDown() throws Exception {
            client.getClass().getMethod("stop").invoke(client);
            loader.close();
        }

        /** {@code target/jetty9-client/}, found from this class's jar or classes folder upwards. */
        static Path jetty9Jars() throws URISyntaxException {
            String configured = System.getProperty("bench.jetty9.jars");
            if (configured != null) {
                return Paths.get(configured);
            }
            Path dir = Paths.get(JettyClientBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (int up = 0; up < 3 && dir != null; up++, dir = dir.getParent()) {
                if (Files.isDirectory(dir.resolve("jetty9-client"))) {
                    return dir.resolve("jetty9-client");
                }
            }
            throw new IllegalStateException("no jetty9-client folder next to the perf-tests jar: run mvn package in "
                    + "perf-tests, or pass -Dbench.jetty9.jars=<folder with Jetty 9.4's client jars>");
        }
    }

    @Benchmark
    public int jetty12ClientRequest(Backend backend, Jetty12 jetty) throws Exception {
        return jetty.client.newRequest(backend.url).send().getStatus();
    }

    @Benchmark
    public int jetty9ClientRequest(Backend backend, Jetty9 jetty) throws Throwable {
        Object request = (Object) jetty.newRequest.invokeExact(jetty.client, backend.url);
        Object response = (Object) jetty.send.invokeExact(request);
        return (int) jetty.status.invokeExact(response);
    }
}
