package io.argus.plugin.jedis;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.jedis.app.JedisApp;
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
 * The plugin with the newest tested Jedis (this module's test class path) against a real redis-server:
 * the test application ({@link JedisApp}) runs in a forked JVM with the real agent and reports to a
 * real collector in this JVM.
 */
class JedisNewestIT extends AbstractCollectorIT {

    String version() {
        return System.getProperty("argus.test.jedis.newest");
    }

    String classpath() {
        String version = version();
        if (version.equals(System.getProperty("argus.test.jedis.newest"))) {
            return AgentApp.applicationClasspath();
        }
        return AgentApp.applicationClasspath(List.of(Paths.get(System.getProperty("argus.test.libs"), "jedis-" + version,
                "jedis-" + version + ".jar").toString()), File.separator + "jedis-", null);
    }

    AgentApp start(String javaHome, String service, RedisServer redis) {
        return AgentApp.builder(JedisApp.class.getName()).javaHome(javaHome).service(service)
                .collector(collector.ingestPort()).samplingRate(100).classpath(classpath()).withTestingApp()
                .args(String.valueOf(redis.port())).logToTestLogs(service).startAndAwaitDone(Duration.ofSeconds(90));
    }

    static final Map<String, String> EXPECTED = Map.of("GET", "4/2", "SET", "3/0", "INCR", "2/1", "DEL", "2/0",
            "HSET", "1/0", "MGET", "1/0", "PIPELINE", "1/0", "EXEC", "1/0");

    @Test
    void spansPerCommandPipelineAndTransactionWithErrorsAndMetrics() {
        String service = "jedis-" + version().replace('.', '-');
        try (RedisServer redis = RedisServer.start(); AgentApp app = start(JDK, service, redis)) {
            List<JsonNode> sync = redisSpans(app, "sync", 5);
            assertRedisCommand(sync.get(0), "SET", "SET user:42 ?");
            assertRedisCommand(sync.get(1), "GET", "GET user:42");
            assertRedisCommand(sync.get(2), "HSET", "HSET profile:42 email ?");
            assertRedisCommand(sync.get(3), "MGET", "MGET user:42 profile:missing");
            assertRedisCommand(sync.get(4), "DEL", "DEL user:42");
            assertThat(sync.get(1).path("tags").path("peer").asText()).isEqualTo("127.0.0.1:" + redis.port());
            List<JsonNode> pooled = redisSpans(app, "pooled", 2);
            assertRedisCommand(pooled.get(0), "SET", "SET pooled:1 ?");
            assertRedisCommand(pooled.get(1), "INCR", "INCR counter");
            assertRedisCommand(redisSpans(app, "pipeline", 1).get(0), "PIPELINE", "PIPELINE");
            assertRedisCommand(redisSpans(app, "transaction", 1).get(0), "EXEC", "MULTI ... EXEC");
            for (JsonNode span : sync) {
                assertThat(span.path("tags").path("db.statement").asText()).doesNotContain("secret", "someone@");
            }

            JsonNode error = redisSpans(app, "error", 1).get(0);
            assertThat(error.path("status").asText()).isEqualTo("ERROR");
            assertThat(error.path("tags").path("error").asText())
                    .isEqualTo(ScenarioLines.line(app, "ERROR", "error").get("class"))
                    .isEqualTo("redis.clients.jedis.exceptions.JedisDataException");

            List<JsonNode> huge = redisSpans(app, "huge", 2);
            assertThat(huge.get(0).path("tags").path("db.statement").asText()).hasSizeLessThan(100)
                    .startsWith("SET kkkk").endsWith("... ?");

            // a server that stalls, then one that is gone: ERROR spans with what the application caught
            // (the Jedis class sends CLIENT PAUSE with sendCommand and a reply getter, outside executeCommand:
            // not seen, see README.md)
            List<JsonNode> timeout = redisSpans(app, "timeout", 1);
            assertThat(timeout.get(0).path("status").asText()).isEqualTo("ERROR");
            assertThat(timeout.get(0).path("tags").path("error").asText())
                    .isEqualTo(ScenarioLines.line(app, "ERROR", "timeout").get("class"))
                    .isEqualTo("redis.clients.jedis.exceptions.JedisConnectionException");
            JsonNode down = redisSpans(app, "down", 1).get(0);
            assertThat(down.path("status").asText()).isEqualTo("ERROR");
            assertThat(down.path("tags").path("error").asText())
                    .isEqualTo(ScenarioLines.line(app, "ERROR", "down").get("class"))
                    .isEqualTo("redis.clients.jedis.exceptions.JedisConnectionException");

            for (String tag : List.of("sync", "pooled", "pipeline", "transaction", "error", "huge", "timeout", "after", "down")) {
                assertThat(ScenarioLines.line(app, "CONTEXT", tag).get("current")).as(tag).isEqualTo("false");
            }
            CollectorClient.await("redis metrics of " + service, WAIT,
                    () -> ScenarioLines.dbCounts(api, service, redis.uri()),
                    c -> c.entrySet().containsAll(EXPECTED.entrySet()));
            awaitFlushAfter(service, System.currentTimeMillis() + 50);
            assertThat(ScenarioLines.dbCounts(api, service, redis.uri())).containsAllEntriesOf(EXPECTED);
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    @Test
    void basicsOnTheNewestJdk() {
        String jdk = AgentApp.newestJavaHome();
        String service = "jedis-" + version().replace('.', '-') + "-" + jdkLabel(jdk);
        try (RedisServer redis = RedisServer.start(); AgentApp app = start(jdk, service, redis)) {
            assertRedisCommand(redisSpans(app, "sync", 5).get(0), "SET", "SET user:42 ?");
            assertRedisCommand(redisSpans(app, "pipeline", 1).get(0), "PIPELINE", "PIPELINE");
            assertThat(redisSpans(app, "error", 1).get(0).path("status").asText()).isEqualTo("ERROR");
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }
}
