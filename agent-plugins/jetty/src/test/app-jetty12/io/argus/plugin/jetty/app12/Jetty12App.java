package io.argus.plugin.jetty.app12;

import io.argus.testing.app.ClassVisibility;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A Jetty 12 core-handler application, run in a forked JVM under the agent. Compiled against the
 * oldest supported Jetty 12 and run on each tested version. Endpoints: {@code /hello} and {@code /hello/*} (200),
 * {@code /fail} (500 set by the handler), {@code /boom} (the handler throws), {@code /async} (the
 * callback is completed {@value #ASYNC_DELAY_MS} ms later on another thread); anything else is not
 * handled (404).
 */
public final class Jetty12App {

    static final long ASYNC_DELAY_MS = 200;

    private Jetty12App() {
    }

    public static void main(String[] args) throws Exception {
        ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "app-async");
            t.setDaemon(true);
            return t;
        });
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                String path = request.getHttpURI().getPath();
                if (path.equals("/hello") || path.startsWith("/hello/")) {
                    write(response, 200, "hello", callback);
                    return true;
                }
                switch (path) {
                    case "/fail":
                        write(response, 500, "failed", callback);
                        return true;
                    case "/boom":
                        throw new IllegalStateException("boom");
                    case "/fields":
                        // did the agent give the channel's request its fields as the class loaded?
                        write(response, ClassVisibility.isFieldOwner(Request.unWrap(request)) ? 200 : 409, "fields", callback);
                        return true;
                    case "/async":
                        later.schedule(() -> write(response, 200, "async", callback), ASYNC_DELAY_MS, TimeUnit.MILLISECONDS);
                        return true;
                    default:
                        return false;
                }
            }
        });
        server.start();
        ClassVisibility.print(Jetty12App.class);
        System.out.println("READY port=" + connector.getLocalPort() + " jetty=" + Server.getVersion());
        server.join();
    }

    private static void write(Response response, int status, String body, Callback callback) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", "text/plain");
        response.write(true, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), callback);
    }
}
