package io.argus.testing;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a test application that runs scenarios under hand-made server spans printed
 * ({@code ROOT tag=<scenario> traceparent=...}, {@code ERROR tag=<scenario> class=...}, ...), and the
 * client spans the collector has under each scenario's root.
 */
public final class ScenarioLines {

    private ScenarioLines() {
    }

    /** The {@code key=value} fields of the first line {@code <kind> tag=<tag> ...}; fails when there is none. */
    public static Map<String, String> line(AgentApp app, String kind, String tag) {
        for (String line : app.lines()) {
            if (line.startsWith(kind + " tag=" + tag + " ")) {
                Map<String, String> fields = new HashMap<>();
                for (String part : line.substring(kind.length() + 1).split(" ")) {
                    int eq = part.indexOf('=');
                    if (eq > 0) {
                        fields.put(part.substring(0, eq), part.substring(eq + 1));
                    }
                }
                return fields;
            }
        }
        throw new AssertionError("no " + kind + " line for " + tag + " in output:\n" + app.output());
    }

    /**
     * The spans of scenario {@code tag} other than its server span, in start order: exactly
     * {@code expected}, each a CLIENT child of that server span with {@code db.system} {@code system}.
     */
    public static List<JsonNode> dbSpans(AgentApp app, String tag, int expected, String system) {
        String[] traceparent = line(app, "ROOT", tag).get("traceparent").split("-");
        JsonNode trace = AbstractCollectorIT.awaitTrace(traceparent[1], expected + 1);
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode span : trace.path("spans")) {
            if (!"SERVER".equals(span.path("kind").asText())) {
                out.add(span);
            }
        }
        assertThat(out).as("spans of %s in %s", tag, trace).hasSize(expected);
        out.sort((a, b) -> Long.compare(a.path("startEpochNanos").asLong(), b.path("startEpochNanos").asLong()));
        for (JsonNode span : out) {
            assertThat(span.path("kind").asText()).isEqualTo("CLIENT");
            assertThat(span.path("parentSpanId").asText()).isEqualToIgnoringCase(traceparent[2]);
            assertThat(span.path("tags").path("db.system").asText()).isEqualTo(system);
        }
        return out;
    }

    /** {@link #dbSpans} of a Redis client. */
    public static List<JsonNode> redisSpans(AgentApp app, String tag, int expected) {
        return dbSpans(app, tag, expected, "redis");
    }

    /** A Redis command's span: named {@code <COMMAND> redis}, with its operation and statement. */
    public static void assertRedisCommand(JsonNode span, String command, String statement) {
        assertDbCall(span, command + " redis", command, statement);
    }

    /** A database span's name, {@code db.operation} and {@code db.statement}. */
    public static void assertDbCall(JsonNode span, String name, String operation, String statement) {
        assertThat(span.path("name").asText()).isEqualTo(name);
        assertThat(span.path("tags").path("db.operation").asText()).isEqualTo(operation);
        assertThat(span.path("tags").path("db.statement").asText()).isEqualTo(statement);
    }

    /** method -> "count/errors" of the service's {@code db} metric rows for {@code target}. */
    public static Map<String, String> dbCounts(CollectorClient api, String service, String target) {
        Map<String, String> counts = new HashMap<>();
        for (JsonNode row : api.get("/api/metrics/http?service=" + service + "&kind=db")) {
            if (target.equals(row.path("target").asText())) {
                counts.put(row.path("method").asText(), row.path("count").asLong() + "/" + row.path("errors").asLong());
            }
        }
        return counts;
    }
}
