package io.argus.perf.sample;

import io.argus.cli.CommandLineSpec;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The sample target: one JVM per service on Jetty 12. Run twice, {@code --name back} and
 * {@code --name front --downstream http://127.0.0.1:<back port>}, so that a request to
 * {@code /front/call} crosses two processes.
 *
 * <ul>
 *   <li>{@code GET /<name>/call}: calls the downstream's {@code /<downstream>/hello} with java.net.http
 *       (or answers itself when there is no downstream)</li>
 *   <li>{@code GET /<name>/hello}: a trivial answer</li>
 *   <li>{@code GET /<name>/ping}: the most trivial endpoint, for worst-case overhead</li>
 *   <li>{@code GET /<name>/cpu?n=20000}: a little CPU work (hashing), for "real work" overhead</li>
 * </ul>
 * Prints {@code SampleService <name> Started @<ms since JVM start>ms port=<port>} when ready.
 */
public final class SampleService {

    private final String name;
    private final String downstreamBase;
    private final HttpClient client;

    private SampleService(String name, String downstream, String downstreamName) {
        this.name = name;
        this.downstreamBase = downstream == null ? null : downstream + "/" + downstreamName;
        this.client = downstream == null ? null : HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    static final String COMMAND = "SampleService";
    static final String USAGE = """
            Usage: SampleService [options]

              --name N                   the service's name and path prefix (default front)
              --port P                   port on 127.0.0.1 (default 8080, 0 = any free port)
              --downstream URL           http://host:port of the service /<name>/call calls (default: none)
              --downstream-name NAME     that service's name (default back)
              --threads N                Jetty's most threads (default 32)
            """;

    /** The command line's values. */
    static final class Options {
        String name = "front";
        int port = 8080;
        String downstream;
        String downstreamName = "back";
        int threads = 32;

        CommandLineSpec<IllegalArgumentException> commandLine() {
            return CommandLineSpec.of(COMMAND, USAGE, IllegalArgumentException::new)
                    .option("--name", "N", v -> name = v)
                    .option("--port", "P", v -> port = number("--port", v, 0, 65535))
                    .option("--downstream", "URL", v -> downstream = v)
                    .option("--downstream-name", "NAME", v -> downstreamName = v)
                    .option("--threads", "N", v -> threads = number("--threads", v, 4, 10_000));
        }

        private static int number(String name, String value, int min, int max) {
            int n;
            try {
                n = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid value for " + name + ": '" + value + "' is not a number");
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException("invalid value for " + name + ": " + n + " is outside " + min
                        + ".." + max);
            }
            return n;
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = new Options();
        CommandLineSpec<IllegalArgumentException> commandLine = o.commandLine();
        try {
            if (commandLine.answer(commandLine.parse(args), System.out)) {
                return;
            }
        } catch (IllegalArgumentException e) {
            System.exit(commandLine.reject(System.err, e.getMessage()));
            return;
        }
        Server server = new Server(new QueuedThreadPool(o.threads, 4));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(o.port);
        server.addConnector(connector);
        server.setHandler(new SampleService(o.name, o.downstream, o.downstreamName).handler());
        server.start();
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        System.out.println("SampleService " + o.name + " Started @" + uptime + "ms port=" + connector.getLocalPort());
        server.join();
    }

    private Handler handler() {
        String prefix = "/" + name + "/";
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                if (!path.startsWith(prefix)) {
                    return false;
                }
                switch (path.substring(prefix.length())) {
                    case "ping" -> reply(response, callback, 200, "pong");
                    case "hello" -> reply(response, callback, 200, "hello from " + name);
                    case "cpu" -> reply(response, callback, 200, cpu(request));
                    case "call" -> call(response, callback);
                    case "fail" -> reply(response, callback, 500, "failed on purpose");
                    default -> reply(response, callback, 404, "no such endpoint");
                }
                return true;
            }
        };
    }

    private void call(Response response, Callback callback) throws Exception {
        if (client == null) {
            reply(response, callback, 200, "no downstream; " + name + " answered");
            return;
        }
        HttpResponse<String> downstream = client.send(
                HttpRequest.newBuilder(URI.create(downstreamBase + "/hello")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        reply(response, callback, downstream.statusCode() == 200 ? 200 : 502,
                name + " -> " + downstream.body());
    }

    private static String cpu(Request request) {
        int n = 20_000;
        Fields.Field param = Request.extractQueryParameters(request).get("n");
        if (param != null) {
            n = Math.min(10_000_000, Integer.parseInt(param.getValue()));
        }
        long h = 1125899906842597L;
        for (int i = 0; i < n; i++) {
            h = 31 * h + (i ^ (h >>> 7));
        }
        return Long.toHexString(h);
    }

    private static void reply(Response response, Callback callback, int status, String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    }
}
