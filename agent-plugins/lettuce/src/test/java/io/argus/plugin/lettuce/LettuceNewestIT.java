package io.argus.plugin.lettuce;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.lettuce.app.LettuceApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.RedisServer;
import io.argus.testing.ScenarioLines;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.argus.testing.ScenarioLines.assertRedisCommand;
import static io.argus.testing.ScenarioLines.redisSpans;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin with the newest Lettuce 6.x (this module's test class path) against a real redis-server:
 * the test application ({@link LettuceApp}) runs in a forked JVM with the real agent and reports to a
 * real collector in this JVM.
 */
class LettuceNewestIT extends AbstractCollectorIT {

    String version() {
        return System.getProperty("argus.test.lettuce.newest");
    }

    /**
     * The application's class path: this module's test class path with Lettuce's Netty (which
     * {@link AgentApp#applicationClasspath()} leaves out as the collector's), and lettuce-core of
     * {@link #version()}.
     */
    String classpath() {
        String version = version();
        String netty = File.separator + "netty-";
        if (version.equals(System.getProperty("argus.test.lettuce.newest"))) {
            return AgentApp.applicationClasspath(List.of(), null, netty);
        }
        return AgentApp.applicationClasspath(List.of(Paths.get(System.getProperty("argus.test.libs"), "lettuce-" + version,
                "lettuce-core-" + version + ".jar").toString()), File.separator + "lettuce-core-", netty);
    }

    AgentApp start(String javaHome, String service, RedisServer redis, Map<String, String> settings) {
        AgentApp.Builder builder = AgentApp.builder(LettuceApp.class.getName())
                .javaHome(javaHome).service(service).collector(collector.ingestPort()).samplingRate(100)
                .classpath(classpath()).withTestingApp().args(String.valueOf(redis.port()));
        settings.forEach(builder::agent);
        return builder.logToTestLogs(service).startAndAwaitDone(Duration.ofSeconds(90));
    }

    static Map<String, String> line(AgentApp app, String kind, String tag) {
        return ScenarioLines.line(app, kind, tag);
    }

    static Map<String, String> counts(String service, String target) {
        return ScenarioLines.dbCounts(api, service, target);
    }

    static final Map<String, String> EXPECTED = Map.of("GET", "5/2", "SET", "4/0", "INCR", "3/1", "DEL", "2/0",
            "HSET", "1/0", "MGET", "1/0", "MULTI", "1/0", "EXEC", "1/0", "CLIENT", "1/0");

    @Test
    void spansPerCommandWithStatementsErrorsAndMetrics() {
        String service = "lettuce-" + version().replace('.', '-');
        try (RedisServer redis = RedisServer.start(); AgentApp app = start(JDK, service, redis, Map.of())) {
            List<JsonNode> sync = redisSpans(app, "sync", 5);
            assertRedisCommand(sync.get(0), "SET", "SET user:42 ?");
            assertRedisCommand(sync.get(1), "GET", "GET user:42");
            assertRedisCommand(sync.get(2), "HSET", "HSET profile:42 email ?");
            assertRedisCommand(sync.get(3), "MGET", "MGET user:42 profile:missing");
            assertRedisCommand(sync.get(4), "DEL", "DEL user:42");
            assertThat(sync.get(0).path("tags").path("peer").asText()).isEqualTo("127.0.0.1:" + redis.port());
            List<JsonNode> async = redisSpans(app, "async", 2);
            assertRedisCommand(async.get(0), "SET", "SET async:1 ?");
            assertRedisCommand(async.get(1), "INCR", "INCR counter");
            assertRedisCommand(redisSpans(app, "reactive", 1).get(0), "GET", "GET async:1");
            List<JsonNode> tx = redisSpans(app, "transaction", 4);
            assertThat(tx.stream().map(s -> s.path("tags").path("db.operation").asText()))
                    .containsExactly("MULTI", "SET", "INCR", "EXEC");
            for (JsonNode span : sync) {
                assertThat(span.toString()).doesNotContain("secret", "someone@example.com");
            }
            assertThat(tx.toString()).doesNotContain("secret");

            // an error reply: an ERROR span with what the application caught
            JsonNode error = redisSpans(app, "error", 1).get(0);
            assertThat(error.path("status").asText()).isEqualTo("ERROR");
            assertThat(error.path("tags").path("error").asText()).isEqualTo(line(app, "ERROR", "error").get("class"))
                    .isEqualTo("io.lettuce.core.RedisCommandExecutionException");

            // huge arguments: bounded tags
            List<JsonNode> huge = redisSpans(app, "huge", 2);
            assertThat(huge.get(0).path("tags").path("db.statement").asText()).hasSizeLessThan(100)
                    .startsWith("SET kkkk").endsWith("... ?");
            assertThat(huge.get(1).path("tags").path("db.statement").asText()).hasSizeLessThan(100);

            // a server that stalls, then one that is gone: ERROR spans; the application sees Lettuce's own exception
            List<JsonNode> timeout = redisSpans(app, "timeout", 2);
            assertThat(timeout.get(0).path("tags").path("db.operation").asText()).isEqualTo("CLIENT");
            assertTimedOut(timeout.get(1), line(app, "ERROR", "timeout").get("class"));
            assertTimedOut(redisSpans(app, "down", 1).get(0), line(app, "ERROR", "down").get("class"));

            for (String tag : List.of("sync", "async", "reactive", "transaction", "error", "huge", "timeout", "after")) {
                assertThat(line(app, "CONTEXT", tag).get("current")).as(tag).isEqualTo("false");
            }
            // metrics per command per server, traced or not, each command once
            CollectorClient.await("redis metrics of " + service, WAIT, () -> counts(service, redis.uri()),
                    c -> c.entrySet().containsAll(EXPECTED.entrySet()));
            awaitFlushAfter(service, System.currentTimeMillis() + 50);
            assertThat(counts(service, redis.uri())).containsAllEntriesOf(EXPECTED);
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    static void assertTimedOut(JsonNode span, String applicationSaw) {
        assertThat(applicationSaw).isEqualTo("io.lettuce.core.RedisCommandTimeoutException");
        assertThat(span.path("status").asText()).isEqualTo("ERROR");
        // the expiry timer fails the command, or the synchronous wait gives up first and cancels it
        assertThat(span.path("tags").path("error").asText())
                .isIn(applicationSaw, "java.util.concurrent.CancellationException");
    }

    @Test
    void basicsOnTheNewestJdk() {
        String jdk = AgentApp.newestJavaHome();
        String service = "lettuce-" + version().replace('.', '-') + "-" + jdkLabel(jdk);
        try (RedisServer redis = RedisServer.start(); AgentApp app = start(jdk, service, redis, Map.of())) {
            assertRedisCommand(redisSpans(app, "sync", 5).get(0), "SET", "SET user:42 ?");
            assertRedisCommand(redisSpans(app, "reactive", 1).get(0), "GET", "GET async:1");
            assertThat(redisSpans(app, "error", 1).get(0).path("status").asText()).isEqualTo("ERROR");
            CollectorClient.await("redis metrics of " + service, WAIT, () -> counts(service, redis.uri()),
                    c -> c.entrySet().containsAll(EXPECTED.entrySet()));
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }
}
