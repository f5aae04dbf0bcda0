package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot application as it is deployed: one executable jar ({@code java -jar}, Boot's own launcher and
 * class loader, which registers its own {@code jar:} URL handler), Spring MVC on Tomcat, Spring Data JPA on H2,
 * with the agent's default settings. Requests go out as soon as the application first answers; each carries a
 * sampled {@code traceparent} of its own, and each trace reaches the collector with its JPA queries under the
 * server span.
 */
class SpringBootJarIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private static final Duration STARTUP = Duration.ofSeconds(240);

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void everyRequestFromTheFirstIsTracedWithItsQueries(String javaHome) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String jdk = javaHome.contains("25") ? "jdk25" : "jdk17";
        try (TestCollector collector = TestCollector.start();
             AgentApp app = AgentApp.jar(SampleCluster.home().resolve("perf/targets/spring-app.jar"))
                     .javaHome(javaHome)
                     .args("--server.port=" + port)
                     .service("clinic-" + jdk)
                     .collector(collector.ingestPort())
                     .logTo(Paths.get(System.getProperty("argus.test.logs", "target/app-logs"), "spring-jar-" + jdk + ".log"))
                     .start()) {
            awaitFirstAnswer(port);
            List<String> traceIds = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                String traceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong() | 1,
                        ThreadLocalRandom.current().nextLong());
                assertThat(get(port, "/owners/" + (1 + i % 10), traceId)).as("request %d", i).isEqualTo(200);
                traceIds.add(traceId);
            }
            CollectorClient api = collector.client();
            for (String traceId : traceIds) {
                JsonNode trace = CollectorClient.await("trace " + traceId, Duration.ofSeconds(60), () -> api.trace(traceId),
                        t -> t.path("spans").size() >= 2);
                List<String> kinds = new ArrayList<>();
                trace.path("spans").forEach(s -> kinds.add(s.path("kind").asText() + " " + s.path("name").asText()));
                assertThat(kinds).as("trace %s", traceId).contains("SERVER GET /owners/{ownerId}")
                        .anyMatch(k -> k.startsWith("CLIENT SELECT"));
            }
            assertThat(app.lines()).noneMatch(line -> line.contains("without its probes"));
        }
    }

    private static void awaitFirstAnswer(int port) throws InterruptedException {
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the application did not answer within " + STARTUP);
    }

    private static int get(int port, String path, String traceId) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("traceparent", "00-" + traceId + "-" + String.format("%016x", ThreadLocalRandom.current().nextLong() | 1) + "-01")
                .timeout(Duration.ofSeconds(30)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
