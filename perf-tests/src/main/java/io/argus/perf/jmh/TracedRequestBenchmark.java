package io.argus.perf.jmh;

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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

/**
 * One whole traced HTTP request as an application serves it: Jetty 12 handles {@code GET /front}
 * (through a {@code LocalConnector}: the whole server stack without sockets) and its handler makes
 * one call downstream with the JDK's {@code java.net.http.HttpClient} ({@code send}, HTTP/1.1,
 * keep-alive) to the allocation-free loopback server. At 100% sampling that is one server span (jetty
 * plugin) with one client span under it (jdk-http-client plugin, which injects {@code traceparent});
 * at 0% it is the untraced twin, which must allocate nothing more than without the agent.
 *
 * <p>{@link #requestWithOwnTraceHeader} is the same request whose downstream call carries a
 * {@code traceparent} header the application set itself: without the agent it measures what
 * {@code java.net.http} allocates to send that one header (the header map copies, the request line
 * buffer), the part of a traced request's cost that is the library's and not the agent's.
 *
 * <p>Unlike the other benchmarks of the package, the benchmark thread holds no span of its own: the
 * server span is started by the jetty plugin on Jetty's thread, as for a real request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TracedRequestBenchmark {

    private static final String REQUEST = "GET /front HTTP/1.1\r\nHost: localhost\r\n\r\n";
    private static final String REQUEST_WITH_HEADER = "GET /front-with-header HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private TinyHttpServer backend;
    private HttpClient client;
    private Server jetty;
    private LocalConnector local;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        backend = TinyHttpServer.start();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest downstream = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + backend.port() + "/back"))
                .GET().build();
        HttpRequest downstreamWithHeader = HttpRequest.newBuilder(downstream.uri())
                .header("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01").GET().build();
        HttpResponse.BodyHandler<Void> discarding = HttpResponse.BodyHandlers.discarding();
        jetty = new Server();
        local = new LocalConnector(jetty);
        jetty.addConnector(local);
        jetty.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                boolean withHeader = request.getHttpURI().getPath().endsWith("-with-header");
                HttpResponse<Void> answer = client.send(withHeader ? downstreamWithHeader : downstream, discarding);
                response.setStatus(answer.statusCode());
                callback.succeeded();
                return true;
            }
        });
        jetty.start();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        jetty.stop();
        backend.close();
    }

    @Benchmark
    public String tracedRequest() throws Exception {
        return local.getResponse(REQUEST);
    }

    @Benchmark
    public String requestWithOwnTraceHeader() throws Exception {
        return local.getResponse(REQUEST_WITH_HEADER);
    }
}
