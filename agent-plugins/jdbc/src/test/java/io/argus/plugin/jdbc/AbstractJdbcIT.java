package io.argus.plugin.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.jdbc.app.JdbcApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against one real embedded database: the test application ({@link JdbcApp}) runs in a
 * forked JVM with the real agent and only that database's jars, and reports to a real collector
 * in this JVM. The expected counts are the ones listed in {@link JdbcApp}.
 */
abstract class AbstractJdbcIT extends AbstractCollectorIT {

    /** The folder of jars under target/jdbc/, e.g. {@code h2-2.0.202}. */
    abstract String jars();

    abstract String url();

    /** A {@code prepareCall} statement the database runs without any set-up. */
    abstract String callSql();

    abstract String system();

    /** The metrics target: the URL without {@code jdbc:} and properties. */
    abstract String target();

    /** The database name in span names. */
    abstract String dbName();

    String classpath() {
        Path folder = Paths.get(System.getProperty("argus.test.jdbc.jars"), jars());
        try (Stream<Path> files = Files.list(folder)) {
            return System.getProperty("argus.test.app.classes") + File.pathSeparator
                    + files.map(Path::toString).filter(f -> f.endsWith(".jar")).sorted()
                    .collect(Collectors.joining(File.pathSeparator));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    AgentApp start(String javaHome, String service, Map<String, String> agentProperties) {
        AgentApp.Builder builder = AgentApp.builder(JdbcApp.class.getName())
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(100)
                .classpath(classpath())
                .withTestingApp()
                .agent("argus.log.level", "debug")
                .jvmArg("-Dderby.stream.error.file=" + Paths.get(System.getProperty("argus.test.jdbc.jars"), service + "-derby.log"))
                .args(url(), callSql());
        agentProperties.forEach(builder::agent);
        return builder.logToTestLogs(service).startAndAwaitDone(Duration.ofSeconds(60));
    }

    // ---- what the application printed

    static Map<String, String> line(AgentApp app, String kind, String tag) {
        for (String line : app.lines()) {
            if (line.startsWith(kind + " tag=" + tag + " ")) {
                Map<String, String> fields = new HashMap<>();
                for (String part : line.substring(kind.length() + 1).split(" ")) {
                    int eq = part.indexOf('=');
                    if (eq > 0) {
                        fields.put(part.substring(0, eq), part.substring(eq + 1));
                    }
                }
                fields.put("#line", line);
                return fields;
            }
        }
        throw new AssertionError("no " + kind + " line for " + tag + " in output:\n" + app.output());
    }

    static String traceId(AgentApp app, String tag) {
        return line(app, "ROOT", tag).get("traceparent").split("-")[1];
    }

    static String rootSpanId(AgentApp app, String tag) {
        return line(app, "ROOT", tag).get("traceparent").split("-")[2];
    }

    // ---- what the collector has

    /** The database spans of the scenario {@code tag}, in start order, after checking the trace's shape. */
    List<JsonNode> dbSpans(AgentApp app, String tag, int expected) {
        JsonNode trace = awaitTrace(traceId(app, tag), expected + 1);
        List<JsonNode> out = new ArrayList<>();
        JsonNode server = null;
        for (JsonNode span : trace.path("spans")) {
            if ("SERVER".equals(span.path("kind").asText())) {
                server = span;
            } else {
                out.add(span);
            }
        }
        assertThat(server).as("the hand-made server span of %s", tag).isNotNull();
        assertThat(server.path("spanId").asText()).isEqualToIgnoringCase(rootSpanId(app, tag));
        assertThat(out).as("database spans of %s in %s", tag, trace).hasSize(expected);
        out.sort((a, b) -> Long.compare(a.path("startEpochNanos").asLong(), b.path("startEpochNanos").asLong()));
        for (JsonNode span : out) {
            assertThat(span.path("kind").asText()).isEqualTo("CLIENT");
            assertThat(span.path("parentSpanId").asText()).isEqualToIgnoringCase(rootSpanId(app, tag));
            assertThat(span.path("tags").path("db.system").asText()).isEqualTo(system());
            assertThat(span.path("tags").has("http.method")).isFalse();
        }
        return out;
    }

    void assertDbSpan(JsonNode span, String type, String statement) {
        assertThat(span.path("name").asText()).isEqualTo(type + " " + dbName());
        assertThat(span.path("tags").path("db.operation").asText()).isEqualTo(type);
        assertThat(span.path("tags").path("db.statement").asText()).isEqualTo(statement);
    }

    static List<JsonNode> dbRows(String service) {
        List<JsonNode> rows = new ArrayList<>();
        api.get("/api/metrics/http?service=" + service + "&kind=db").forEach(rows::add);
        return rows;
    }

    /** type -> "count/errors" of the db metric rows for {@code target}. */
    static Map<String, String> dbCounts(String service, String target) {
        Map<String, String> counts = new HashMap<>();
        for (JsonNode row : dbRows(service)) {
            assertThat(row.path("kind").asText()).isEqualTo("db");
            assertThat(row.path("target").asText()).isEqualTo(target);
            assertThat(row.path("status").asInt()).isZero();
            counts.put(row.path("method").asText(), row.path("count").asLong() + "/" + row.path("errors").asLong());
        }
        return counts;
    }

    static final Map<String, String> EXPECTED_COUNTS = Map.of(
            "OTHER", "2/0", "INSERT", "3/1", "SELECT", "4/1", "UPDATE", "2/0", "DELETE", "1/0");

    /** Waits for a metrics flush that started after now: everything recorded before is stored. */
    static void awaitLaterFlush(String service) {
        awaitFlushAfter(service, System.currentTimeMillis() + 50);
    }

    // ---- the scenarios

    @Test
    void recordsSpansAndMetricsAndKeepsErrorsUnchanged() {
        String jdk = JDK;
        String service = "jdbc-" + jars().replace('.', '-');
        String offService = service + "-off";
        try (AgentApp app = start(jdk, service, Map.of());
             AgentApp off = start(jdk, offService, Map.of("argus.plugin.jdbc.enabled", "false"))) {
            // spans: plain statements, SQL sanitised
            List<JsonNode> plain = dbSpans(app, "plain", 3);
            assertDbSpan(plain.get(0), "INSERT", "INSERT INTO items VALUES (?, ?)");
            assertDbSpan(plain.get(1), "SELECT", "SELECT name FROM items WHERE id = ? AND name <> ?");
            assertDbSpan(plain.get(2), "UPDATE", "UPDATE items SET name = ? WHERE id = ?");
            // prepared statements: the SQL comes from prepareStatement
            List<JsonNode> prepared = dbSpans(app, "prepared", 2);
            assertDbSpan(prepared.get(0), "SELECT", "SELECT name FROM items WHERE id = ?");
            assertDbSpan(prepared.get(1), "DELETE", "DELETE FROM items WHERE id = ?");
            // batches: one span per executeBatch
            List<JsonNode> batch = dbSpans(app, "batch", 2);
            assertDbSpan(batch.get(0), "INSERT", "INSERT INTO items VALUES (?, ?)");
            assertDbSpan(batch.get(1), "UPDATE", "UPDATE items SET name = ? WHERE id = ?");
            assertThat(line(app, "BATCH", "prepared").get("updates")).isEqualTo("3");
            assertThat(line(app, "BATCH", "plain").get("updates")).isEqualTo("2");
            List<JsonNode> call = dbSpans(app, "call", 1);
            assertThat(call.get(0).path("tags").path("db.operation").asText()).isEqualTo("OTHER");
            // errors: ERROR spans, and the application sees exactly what it sees without the plugin
            List<JsonNode> errors = dbSpans(app, "error", 2);
            assertDbSpan(errors.get(0), "SELECT", "SELECT * FROM no_such_table WHERE id = ?");
            assertDbSpan(errors.get(1), "INSERT", "INSERT INTO items VALUES (?, ?)");
            for (int i = 0; i < 2; i++) {
                assertThat(errors.get(i).path("status").asText()).isEqualTo("ERROR");
                assertThat(errors.get(i).path("tags").path("error").asText()).isNotEmpty();
            }
            for (String tag : List.of("missing-table", "duplicate")) {
                assertThat(line(app, "ERROR", tag).get("#line")).isEqualTo(line(off, "ERROR", tag).get("#line"));
            }
            assertThat(errors.get(0).path("tags").path("error").asText())
                    .isEqualTo(line(app, "ERROR", "missing-table").get("class"));
            for (JsonNode span : plain) {
                assertThat(span.path("tags").path("db.statement").asText()).doesNotContain("secret", "hidden", "comment");
            }
            // no context outlives its request
            for (String tag : List.of("plain", "prepared", "batch", "call", "error", "after")) {
                assertThat(line(app, "CONTEXT", tag).get("current")).as(tag).isEqualTo("false");
            }

            // metrics: every execution exactly once, traced or not
            CollectorClient.await("db metrics of " + service, WAIT, () -> dbCounts(service, target()),
                    counts -> counts.equals(EXPECTED_COUNTS));
            awaitLaterFlush(service);
            assertThat(dbCounts(service, target())).isEqualTo(EXPECTED_COUNTS);
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
            assertThat(agentGauge(service, "agent.classes.transformed")).isPositive();
            reportPrefilter(app);

            // switched off: nothing instrumented, nothing recorded, the application unchanged
            awaitLaterFlush(offService);
            assertThat(dbRows(offService)).isEmpty();
            assertThat(agentGauge(offService, "agent.classes.transformed")).isZero();
            JsonNode offTrace = awaitTrace(traceId(off, "plain"), 1);
            assertThat(offTrace.path("spans")).hasSize(1);
            assertThat(off.output()).doesNotContain("DEBUG instrumented");
            assertThat(line(off, "COUNT", "after").get("#line")).isEqualTo(line(app, "COUNT", "after").get("#line"));
        }
    }

    /** How many classes the name hints let through to hierarchy matching, and how many were instrumented. */
    private void reportPrefilter(AgentApp app) {
        List<String> examined = app.lines().stream().filter(l -> l.contains("DEBUG transform of "))
                .map(l -> l.replaceAll(".*DEBUG transform of (\\S+).*", "$1")).toList();
        List<String> instrumented = app.lines().stream().filter(l -> l.contains("DEBUG instrumented "))
                .map(l -> l.replaceAll(".*DEBUG instrumented (\\S+).*", "$1")).toList();
        System.out.println("PREFILTER " + jars() + ": " + examined.size() + " classes matched a name hint and had their"
                + " hierarchy resolved, " + instrumented.size() + " were instrumented: " + instrumented);
        assertThat(instrumented).isNotEmpty();
        assertThat(examined.size()).as("classes examined: %s", examined).isLessThan(80);
    }
}
