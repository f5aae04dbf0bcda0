package io.argus.plugin.redisson;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.redisson.app.RedissonApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.RedisServer;
import io.argus.testing.ScenarioLines;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static io.argus.testing.ScenarioLines.assertRedisCommand;
import static io.argus.testing.ScenarioLines.redisSpans;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin with the newest Redisson (this module's test class path) against a real redis-server: the test
 * application ({@link RedissonApp}) runs in a forked JVM with the real agent and reports to a real collector in this
 * JVM.
 */
class RedissonNewestIT extends AbstractCollectorIT {

    String version() {
        return System.getProperty("argus.test.redisson.newest");
    }

    /**
     * The application's class path: this module's test class path with Redisson's Netty (which
     * {@link AgentApp#applicationClasspath()} leaves out as the collector's), and redisson of {@link #version()}
     * with what that release needs beyond the newest's dependencies (its folder in target/libs/).
     */
    String classpath() {
        String version = version();
        String netty = File.separator + "netty-";
        if (version.equals(System.getProperty("argus.test.redisson.newest"))) {
            return AgentApp.applicationClasspath(List.of(), null, netty);
        }
        File[] jars = Paths.get(System.getProperty("argus.test.libs"), "redisson-" + version).toFile()
                .listFiles((dir, name) -> name.endsWith(".jar"));
        assertThat(jars).as("target/libs/redisson-" + version).isNotEmpty();
        return AgentApp.applicationClasspath(Arrays.stream(jars).map(File::getPath).sorted().toList(),
                File.separator + "redisson-", netty);
    }

    AgentApp start(String javaHome, String service, RedisServer redis) {
        return AgentApp.builder(RedissonApp.class.getName())
                .javaHome(javaHome).service(service).collector(collector.ingestPort()).samplingRate(100)
                .classpath(classpath()).withTestingApp().args(String.valueOf(redis.port()))
                .logToTestLogs(service).startAndAwaitDone(Duration.ofSeconds(90));
    }

    static Map<String, String> counts(String service, String target) {
        return ScenarioLines.dbCounts(api, service, target);
    }

    /** Calls/errors per command: each command once, traced or not, the batch as one call. */
    static final Map<String, String> EXPECTED = Map.of("GET", "3/0", "SET", "2/0", "INCR", "2/1", "DEL", "1/0",
            "HSET", "1/0", "MGET", "1/0", "PIPELINE", "1/0", "SCRIPT", "1/0", "EVALSHA", "1/1");

    @Test
    void spansPerCommandAndBatchWithStatementsErrorsAndMetrics() {
        String service = "redisson-" + version().replace('.', '-');
        try (RedisServer redis = RedisServer.start(); AgentApp app = start(JDK, service, redis)) {
            List<JsonNode> sync = redisSpans(app, "sync", 5);
            assertRedisCommand(sync.get(0), "SET", "SET user:42 ?");
            assertRedisCommand(sync.get(1), "GET", "GET user:42");
            assertRedisCommand(sync.get(2), "HSET", "HSET profile:42 ? ?");
            assertRedisCommand(sync.get(3), "MGET", "MGET user:42 profile:missing");
            assertRedisCommand(sync.get(4), "DEL", "DEL user:42");
            assertThat(sync.get(1).path("tags").path("peer").asText()).isEqualTo("127.0.0.1:" + redis.port());
            assertThat(sync.toString()).doesNotContain("secret", "someone@example.com");

            // sent from Netty's threads once a connection is free: still children of the caller's span
            List<JsonNode> async = redisSpans(app, "async", 2);
            assertThat(async.stream().map(s -> s.path("tags").path("db.operation").asText()))
                    .containsExactlyInAnyOrder("SET", "INCR");
            assertRedisCommand(redisSpans(app, "reactive", 1).get(0), "GET", "GET async:1");
            JsonNode batch = redisSpans(app, "batch", 1).get(0);
            assertRedisCommand(batch, "PIPELINE", "PIPELINE");
            assertThat(batch.toString()).doesNotContain("secret");

            // an error reply: an ERROR span with what the application caught
            JsonNode error = redisSpans(app, "error", 1).get(0);
            assertThat(error.path("tags").path("db.operation").asText()).isEqualTo("INCR");
            assertThat(error.path("status").asText()).isEqualTo("ERROR");
            assertThat(error.path("tags").path("error").asText())
                    .isEqualTo(ScenarioLines.line(app, "ERROR", "error").get("class"));

            // a server that is busy past the command's timeout: an ERROR span, the script's text bounded
            JsonNode timeout = redisSpans(app, "timeout", 1).get(0);
            assertThat(timeout.path("tags").path("db.operation").asText()).isEqualTo("EVALSHA");
            assertThat(timeout.path("tags").path("db.statement").asText()).matches("EVALSHA [0-9a-f]{40} 0");
            assertThat(timeout.path("status").asText()).isEqualTo("ERROR");
            assertThat(timeout.path("tags").path("error").asText())
                    .isEqualTo(ScenarioLines.line(app, "ERROR", "timeout").get("class"));

            for (String tag : List.of("sync", "async", "reactive", "batch", "error", "timeout", "after")) {
                assertThat(ScenarioLines.line(app, "CONTEXT", tag).get("current")).as(tag).isEqualTo("false");
            }
            CollectorClient.await("redis metrics of " + service, WAIT, () -> counts(service, redis.uri()),
                    c -> c.entrySet().containsAll(EXPECTED.entrySet()));
            awaitFlushAfter(service, System.currentTimeMillis() + 50);
            assertThat(counts(service, redis.uri())).containsAllEntriesOf(EXPECTED);
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    @Test
    void basicsOnTheNewestJdk() {
        String jdk = AgentApp.newestJavaHome();
        String service = "redisson-" + version().replace('.', '-') + "-" + jdkLabel(jdk);
        try (RedisServer redis = RedisServer.start(); AgentApp app = start(jdk, service, redis)) {
            assertRedisCommand(redisSpans(app, "sync", 5).get(0), "SET", "SET user:42 ?");
            assertRedisCommand(redisSpans(app, "reactive", 1).get(0), "GET", "GET async:1");
            assertRedisCommand(redisSpans(app, "batch", 1).get(0), "PIPELINE", "PIPELINE");
            assertThat(redisSpans(app, "error", 1).get(0).path("status").asText()).isEqualTo("ERROR");
            CollectorClient.await("redis metrics of " + service, WAIT, () -> counts(service, redis.uri()),
                    c -> c.entrySet().containsAll(EXPECTED.entrySet()));
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }
}
