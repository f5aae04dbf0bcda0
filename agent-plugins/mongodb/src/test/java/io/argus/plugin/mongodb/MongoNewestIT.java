package io.argus.plugin.mongodb;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.mongodb.app.MongoApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.MongoServer;
import io.argus.testing.ScenarioLines;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin with the newest tested MongoDB drivers (sync and reactive-streams, this module's test
 * class path) against mongo-java-server in this JVM: the test application ({@link MongoApp}) runs in a
 * forked JVM with the real agent and reports to a real collector in this JVM.
 */
class MongoNewestIT extends AbstractCollectorIT {

    String version() {
        return System.getProperty("argus.test.mongodb.newest");
    }

    /** This module's test class path with the driver's jars of {@link #version()}. */
    String classpath() {
        String version = version();
        if (version.equals(System.getProperty("argus.test.mongodb.newest"))) {
            return AgentApp.applicationClasspath();
        }
        try (Stream<Path> jars = Files.list(Paths.get(System.getProperty("argus.test.libs"), "mongodb-" + version))) {
            return AgentApp.applicationClasspath(jars.map(Path::toString).sorted().collect(Collectors.toList()),
                    File.separator + "org" + File.separator + "mongodb" + File.separator, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the application to its end; the server is stopped when the application asks. */
    AgentApp run(String javaHome, String service, MongoServer mongo) throws IOException {
        Path stopped = Files.createTempFile("mongo-stopped", "");
        Files.delete(stopped);
        AgentApp app = AgentApp.builder(MongoApp.class.getName())
                .javaHome(javaHome).service(service).collector(collector.ingestPort()).samplingRate(100)
                .classpath(classpath()).withTestingApp().args(mongo.connectionString(), stopped.toString())
                .logToTestLogs(service).start();
        try {
            app.awaitLine("^STOP-SERVER$", Duration.ofSeconds(90));
            mongo.close();
            Files.createFile(stopped);
            app.awaitLine("^DONE$", Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            app.close();
            throw e;
        }
        return app;
    }

    static void assertCommand(JsonNode span, String operation, String collection, String statement) {
        ScenarioLines.assertDbCall(span, operation + " shop", operation, statement);
        assertThat(span.path("tags").path("db.name").asText()).isEqualTo("shop");
        assertThat(span.path("tags").path("db.collection.name").asText()).isEqualTo(collection);
    }

    @Test
    void spansPerCommandWithSanitisedFiltersErrorsAndMetrics() throws IOException {
        String service = "mongodb-" + version().replace('.', '-');
        try (MongoServer mongo = MongoServer.start(); AgentApp app = run(JDK, service, mongo)) {
            String target = "mongodb://127.0.0.1:" + mongo.port() + "/shop";
            List<JsonNode> sync = ScenarioLines.dbSpans(app, "sync", 4, "mongodb");
            assertCommand(sync.get(0), "insert", "orders", "{\"insert\": \"orders\", \"ordered\": ?}");
            assertCommand(sync.get(1), "find", "orders",
                    "{\"find\": \"orders\", \"filter\": {\"$and\": [{\"status\": ?}, {\"total\": {\"$gt\": ?}}]}, \"limit\": ?, "
                            + "\"singleBatch\": ?}");
            assertCommand(sync.get(2), "update", "orders", "{\"update\": \"orders\", \"ordered\": ?}");
            assertCommand(sync.get(3), "delete", "orders", "{\"delete\": \"orders\", \"ordered\": ?}");
            assertThat(sync.get(0).path("tags").path("peer").asText()).isEqualTo("127.0.0.1:" + mongo.port());
            List<JsonNode> reactive = ScenarioLines.dbSpans(app, "reactive", 2, "mongodb");
            assertThat(reactive.get(0).path("tags").path("db.operation").asText()).isEqualTo("insert");
            assertCommand(reactive.get(1), "find", "orders", "{\"find\": \"orders\", \"filter\": {\"status\": ?}, \"batchSize\": ?}");
            for (JsonNode span : sync) {
                assertThat(span.path("tags").path("db.statement").asText()).doesNotContain("secret", "paid", "42");
            }

            JsonNode error = ScenarioLines.dbSpans(app, "error", 1, "mongodb").get(0);
            assertThat(error.path("status").asText()).isEqualTo("ERROR");
            assertThat(error.path("tags").path("db.operation").asText()).isEqualTo("noSuchCommand");
            assertThat(error.path("tags").path("error").asText())
                    .isEqualTo(ScenarioLines.line(app, "ERROR", "error").get("class"))
                    .isEqualTo("com.mongodb.MongoCommandException");

            JsonNode huge = ScenarioLines.dbSpans(app, "huge", 1, "mongodb").get(0);
            assertThat(huge.path("tags").path("db.statement").asText()).hasSizeLessThan(200).doesNotContain("vvv");

            // the server is gone under an open connection: an ERROR span with the driver's exception
            JsonNode down = ScenarioLines.dbSpans(app, "down", 1, "mongodb").get(0);
            assertThat(down.path("status").asText()).isEqualTo("ERROR");
            assertThat(down.path("tags").path("error").asText()).isEqualTo(ScenarioLines.line(app, "ERROR", "down").get("class"))
                    .startsWith("com.mongodb.MongoSocket");

            for (String tag : List.of("sync", "reactive", "error", "huge", "after", "down")) {
                assertThat(ScenarioLines.line(app, "CONTEXT", tag).get("current")).as(tag).isEqualTo("false");
            }
            // metrics per command and database, traced or not: find 4 with the one that failed (sync, reactive,
            // huge, down), aggregate 3 (the untraced countDocuments)
            CollectorClient.await("mongodb metrics of " + service, WAIT, () -> ScenarioLines.dbCounts(api, service, target),
                    c -> c.keySet().containsAll(List.of("insert", "find", "update", "delete", "aggregate"))
                            && "4/1".equals(c.get("find")));
            Map<String, String> counts = ScenarioLines.dbCounts(api, service, target);
            assertThat(counts).containsEntry("insert", "2/0").containsEntry("update", "1/0")
                    .containsEntry("delete", "1/0").containsEntry("find", "4/1").containsEntry("aggregate", "3/0");
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    @Test
    void basicsOnTheNewestJdk() throws IOException {
        String jdk = AgentApp.newestJavaHome();
        String service = "mongodb-" + version().replace('.', '-') + "-" + jdkLabel(jdk);
        try (MongoServer mongo = MongoServer.start(); AgentApp app = run(jdk, service, mongo)) {
            assertThat(ScenarioLines.dbSpans(app, "sync", 4, "mongodb")).hasSize(4);
            assertThat(ScenarioLines.dbSpans(app, "reactive", 2, "mongodb")).hasSize(2);
            assertThat(ScenarioLines.dbSpans(app, "error", 1, "mongodb").get(0).path("status").asText()).isEqualTo("ERROR");
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }
}
