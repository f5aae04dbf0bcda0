package io.argus.distribution;

import io.argus.testing.AgentApp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/** The sample service as users run it: a back and a front JVM, each with the assembled agent. */
final class SampleCluster implements AutoCloseable {

    static final Duration STARTUP = Duration.ofSeconds(60);

    final AgentApp back;
    final AgentApp front;
    final int backPort;
    final int frontPort;
    private SampleCluster(AgentApp back, int backPort, AgentApp front, int frontPort) {
        this.back = back;
        this.backPort = backPort;
        this.front = front;
        this.frontPort = frontPort;
    }

    static Path home() {
        return Paths.get(System.getProperty("argus.home"));
    }

    static String perfClasspath() {
        return home().resolve("perf/lib").toString() + "/*";
    }

    /** {@code agentSettings} applies to both JVMs (collector, sampling, ...). */
    static SampleCluster start(String javaHome, String logTag, Consumer<AgentApp.Builder> agentSettings) {
        AgentApp back = null;
        try {
            AgentApp.Builder backBuilder = service(javaHome, "back", logTag).args("--name", "back", "--port", "0");
            agentSettings.accept(backBuilder);
            back = backBuilder.start();
            int backPort = Integer.parseInt(back.awaitLine("Started @\\d+ms port=(\\d+)", STARTUP).group(1));
            AgentApp.Builder frontBuilder = service(javaHome, "front", logTag)
                    .args("--name", "front", "--port", "0", "--downstream", "http://127.0.0.1:" + backPort);
            agentSettings.accept(frontBuilder);
            AgentApp front = frontBuilder.start();
            int frontPort = Integer.parseInt(front.awaitLine("Started @\\d+ms port=(\\d+)", STARTUP).group(1));
            return new SampleCluster(back, backPort, front, frontPort);
        } catch (RuntimeException e) {
            if (back != null) {
                back.close();
            }
            throw e;
        }
    }

    /** One more sample service JVM (e.g. with a downstream nobody listens on); returns it with its port. */
    static Map.Entry<AgentApp, Integer> startService(String javaHome, String logTag,
                                                     Consumer<AgentApp.Builder> agentSettings, String... args) {
        AgentApp.Builder builder = service(javaHome, args[1], logTag).args(args);
        agentSettings.accept(builder);
        AgentApp app = builder.start();
        try {
            return Map.entry(app, Integer.parseInt(app.awaitLine("Started @\\d+ms port=(\\d+)", STARTUP).group(1)));
        } catch (RuntimeException e) {
            app.close();
            throw e;
        }
    }

    private static AgentApp.Builder service(String javaHome, String name, String logTag) {
        return AgentApp.builder("io.argus.perf.sample.SampleService")
                .javaHome(javaHome)
                .classpath(perfClasspath())
                .service(name)
                .logTo(Paths.get(System.getProperty("argus.test.logs", "target/app-logs"), logTag + "-" + name + ".log"));
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** GET on the front service; returns the status code. */
    int get(String path) {
        return get(frontPort, path);
    }

    /** GET on a sample service on {@code port}; returns the status code. */
    static int get(int port, String path) {
        try {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(15)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode();
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        front.close();
        back.close();
    }
}
