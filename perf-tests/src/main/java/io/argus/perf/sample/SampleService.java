package io.argus.perf.sample;

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
import java.util.List;

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

    private static void exitBadArguments(String message) {
        System.err.println("sample-service: " + message);
        System.exit(2);
    }

    public static void main(String[] args) throws Exception {
        String name = "front";
        int port = 8080;
        String downstream = null;
        String downstreamName = "back";
        int threads = 32;
        // a hand loop, not the other commands' picocli: this is the application the overhead suite times from
        // spawn, and a command-line library would add its own start-up to every scenario's figure
        String usage = "usage: --name N --port P [--downstream http://host:port] [--downstream-name back] [--threads 32]";
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (!List.of("--name", "--port", "--downstream", "--downstream-name", "--threads").contains(flag)) {
                exitBadArguments("unknown option '" + flag + "'; " + usage);
            }
            if (i + 1 >= args.length) {
                exitBadArguments(flag + " needs a value; " + usage);
            }
            String value = args[++i];
            try {
                switch (flag) {
                    case "--name" -> name = value;
                    case "--port" -> port = Integer.parseInt(value);
                    case "--downstream" -> downstream = value;
                    case "--downstream-name" -> downstreamName = value;
                    default -> threads = Integer.parseInt(value);
                }
            } catch (NumberFormatException e) {
                exitBadArguments(flag + " must be a whole number, got '" + value + "'");
            }
        }
        Server server = new Server(new QueuedThreadPool(threads, 4));
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(new SampleService(name, downstream, downstreamName).handler());
        server.start();
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        System.out.println("SampleService " + name + " Started @" + uptime + "ms port=" + connector.getLocalPort());
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
