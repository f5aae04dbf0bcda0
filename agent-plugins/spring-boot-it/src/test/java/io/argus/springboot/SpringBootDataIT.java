package io.argus.springboot;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.MongoServer;
import io.argus.testing.RedisServer;
import io.argus.testing.ScenarioLines;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot 3.5 service that reads through Redis (Spring Data Redis on Lettuce) and MongoDB (Spring
 * Data MongoDB), with the agent's default settings and every plugin, against a real redis-server and
 * mongo-java-server: requests sent as soon as the service answers are each one trace, the server span
 * with the Redis and MongoDB spans under it, and the database metrics count every command per server.
 */
class SpringBootDataIT extends AbstractCollectorIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Product ids asked for, in order: 1 and 2 miss the cache (MongoDB), the second 1 hits it. */
    private static final List<String> REQUESTS = List.of("1", "2", "1");

    @Test
    void tomcatOnJdk17() throws Exception {
        run("boot3-catalog-tomcat-jdk17", JDK);
    }

    @Test
    @EnabledIf("io.argus.springboot.AbstractSpringBootIT#hasJdk25")
    void virtualThreadsOnJdk25() throws Exception {
        run("boot3-catalog-tomcat-virtual-jdk25", AbstractSpringBootIT.jdk25(), "--spring.threads.virtual.enabled=true");
    }

    void run(String service, String javaHome, String... extraArgs) throws Exception {
        try (RedisServer redis = RedisServer.start(); MongoServer mongo = MongoServer.start()) {
            List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off",
                    "--spring.data.redis.host=127.0.0.1", "--spring.data.redis.port=" + redis.port(),
                    "--spring.data.mongodb.uri=mongodb://127.0.0.1:" + mongo.port() + "/catalog"));
            args.addAll(List.of(extraArgs));
            AgentApp.Builder builder = AgentApp.builder("io.argus.springboot.catalog.CatalogApp")
                    .javaHome(javaHome).service(service).collector(collector.ingestPort())
                    .classpath(AbstractSpringBootIT.classpath("boot3", AbstractSpringBootIT.Container.TOMCAT, List.of()))
                    .args(args.toArray(new String[0])).logToTestLogs(service);
            try (AgentApp app = builder.samplingRate(100).start()) {
                // start-up on a shared 2-core machine can take long: the wait is for the port, not for the agent
                Matcher started = app.awaitLine("Tomcat started on port[s]?[^0-9]*(\\d+)", Duration.ofSeconds(120));
                int port = Integer.parseInt(started.group(1));
                List<String> bodies = new ArrayList<>();
                for (String id : REQUESTS) {
                    bodies.add(firstAnswer(port, "/api/products/" + id));
                }
                assertThat(bodies.get(2)).endsWith("cache views=2");
                verify(service, redis, mongo);
            }
        }
    }

    /** The response to {@code path}, sent again only while nothing answers (the port is open once Tomcat logs it). */
    static String firstAnswer(int port, String path) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            HttpResponse<String> response;
            try {
                response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (java.net.ConnectException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(20);
                continue;
            }
            assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
            return response.body();
        }
    }

    void verify(String service, RedisServer redis, MongoServer mongo) {
        List<JsonNode> traces = CollectorClient.await(REQUESTS.size() + " product traces", WAIT,
                () -> list(api.get("/api/traces?service=" + service + "&limit=100")).stream()
                        .filter(t -> "GET /api/products/{id}".equals(t.path("rootName").asText()))
                        .collect(Collectors.toList()),
                t -> t.size() >= REQUESTS.size());
        assertThat(traces).hasSize(REQUESTS.size());
        int misses = 0;
        for (JsonNode summary : traces) {
            // a miss: GET, find, SET, INCR; a hit: GET, INCR
            JsonNode trace = awaitTrace(summary.path("traceId").asText(), 3);
            List<JsonNode> spans = list(trace.path("spans"));
            JsonNode root = spans.stream().filter(AbstractCollectorIT::isRoot).findFirst().orElseThrow();
            assertThat(root.path("kind").asText()).isEqualTo("SERVER");
            List<JsonNode> children = spans.stream().filter(s -> s != root).collect(Collectors.toList());
            assertThat(children).as("spans under %s", root).allSatisfy(s -> {
                assertThat(s.path("parentSpanId").asText()).isEqualTo(root.path("spanId").asText());
                assertThat(s.path("kind").asText()).isEqualTo("CLIENT");
            });
            List<String> redisOps = children.stream().filter(s -> "redis".equals(s.path("tags").path("db.system").asText()))
                    .map(s -> s.path("tags").path("db.operation").asText()).collect(Collectors.toList());
            List<JsonNode> mongoSpans = children.stream()
                    .filter(s -> "mongodb".equals(s.path("tags").path("db.system").asText())).collect(Collectors.toList());
            if (mongoSpans.isEmpty()) {
                assertThat(redisOps).containsExactlyInAnyOrder("GET", "INCR");
            } else {
                misses++;
                assertThat(redisOps).containsExactlyInAnyOrder("GET", "SET", "INCR");
                JsonNode find = mongoSpans.get(0);
                assertThat(mongoSpans).hasSize(1);
                assertThat(find.path("tags").path("db.operation").asText()).isEqualTo("find");
                assertThat(find.path("tags").path("db.name").asText()).isEqualTo("catalog");
                assertThat(find.path("tags").path("db.collection.name").asText()).isEqualTo("products");
                assertThat(find.path("tags").path("db.statement").asText()).contains("\"filter\": {\"sku\": ?}");
            }
            assertThat(children.stream().filter(s -> "SET".equals(s.path("tags").path("db.operation").asText())))
                    .allSatisfy(s -> assertThat(s.path("tags").path("db.statement").asText()).matches("SET product:\\d \\?.*"));
        }
        assertThat(misses).isEqualTo(2);
        // metrics per command and server: the requests' commands (the seeding at start-up adds MongoDB ones)
        Map<String, String> redisCounts = CollectorClient.await("redis metrics", WAIT,
                () -> ScenarioLines.dbCounts(api, service, redis.uri()), c -> "3/0".equals(c.get("INCR")));
        assertThat(redisCounts).containsEntry("GET", "3/0").containsEntry("SET", "2/0").containsEntry("INCR", "3/0");
        Map<String, String> mongoCounts = CollectorClient.await("mongodb metrics", WAIT,
                () -> ScenarioLines.dbCounts(api, service, "mongodb://127.0.0.1:" + mongo.port() + "/catalog"),
                c -> c.containsKey("find"));
        assertThat(mongoCounts).containsEntry("find", "2/0").containsKey("insert");
        assertThat(agentGauge(service, "agent.advice.errors")).isZero();
    }
}
