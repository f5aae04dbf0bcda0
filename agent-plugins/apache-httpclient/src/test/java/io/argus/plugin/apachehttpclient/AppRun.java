package io.argus.plugin.apachehttpclient;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** One finished run of a test application in a forked JVM with the agent: what it printed, and its service. */
final class AppRun implements AutoCloseable {

    private static final Pattern FIELD = Pattern.compile("(\\w[\\w-]*)=(\\S*)");
    static final Duration WAIT = Duration.ofSeconds(30);

    final AgentApp app;
    final String service;
    int port;
    int closedPort;
    private final List<Map<String, String>> lines = new ArrayList<>();
    private boolean done;

    private AppRun(AgentApp app, String service) {
        this.app = app;
        this.service = service;
    }

    /** Waits (once) until the application has made all its calls, and reads what it printed. */
    synchronized AppRun done() {
        if (done) {
            return this;
        }
        app.awaitLine("^DONE$", Duration.ofSeconds(90));
        for (String line : app.lines()) {
            int space = line.indexOf(' ');
            if (space > 0 && line.substring(0, space).matches("[A-Z]+")) {
                Map<String, String> fields = new HashMap<>();
                fields.put("#", line.substring(0, space));
                Matcher m = FIELD.matcher(line.substring(space + 1));
                while (m.find()) {
                    fields.put(m.group(1), m.group(2));
                }
                lines.add(fields);
            }
        }
        done = true;
        Map<String, String> server = first("SERVER", null);
        this.port = Integer.parseInt(server.get("port"));
        this.closedPort = Integer.parseInt(server.get("closedPort"));
        return this;
    }

    /**
     * Starts {@code mainClass} from the test classes plus the jars of one library version
     * ({@code target/libs/<libs>/}), at 100% sampling; {@link #done()} waits until it has made all its calls.
     */
    static AppRun start(String mainClass, String libs, String javaHome, String service, int ingestPort,
                        Map<String, String> agentProperties) {
        Path jars = Paths.get(System.getProperty("argus.test.libs"), libs);
        assertThat(Files.isDirectory(jars)).as("jars of %s in %s", libs, jars).isTrue();
        AgentApp.Builder builder = AgentApp.builder(mainClass)
                .javaHome(javaHome)
                .service(service)
                .collector(ingestPort)
                .samplingRate(100)
                .classpath(System.getProperty("argus.test.app") + File.pathSeparator + jars.resolve("*"));
        agentProperties.forEach(builder::agent);
        String logs = System.getProperty("argus.test.logs");
        if (logs != null) {
            builder.logTo(Paths.get(logs, service + ".log"));
        }
        return new AppRun(builder.start(), service);
    }

    /** The first output line of this kind (and tag, unless null); fails if there is none. */
    Map<String, String> first(String kind, String tag) {
        done();
        List<Map<String, String>> all = all(kind, tag);
        if (all.isEmpty()) {
            throw new AssertionError("no " + kind + " line for tag " + tag + " in output:\n" + app.output());
        }
        return all.get(0);
    }

    /** Every output line of this kind (and tag, unless null), in order. */
    List<Map<String, String>> all(String kind, String tag) {
        done();
        List<Map<String, String>> found = new ArrayList<>();
        for (Map<String, String> line : lines) {
            if (line.get("#").equals(kind) && (tag == null || tag.equals(line.get("tag")))) {
                found.add(line);
            }
        }
        return found;
    }

    boolean has(String kind, String tag) {
        return !all(kind, tag).isEmpty();
    }

    static String value(Map<String, String> line, String key) {
        String value = line.get(key);
        return "null".equals(value) ? null : value;
    }

    /** The W3C trace context of the hand-made parent span of the call tagged {@code tag}. */
    TraceContext root(String tag) {
        return TraceContext.parse(first("ROOT", tag).get("traceparent"));
    }

    /** Waits until the collector has the {@code /after} marker: every metric recorded before it is stored. */
    void awaitAllMetricsStored(CollectorClient client) {
        app.awaitLine("^AFTER$", WAIT);
        CollectorClient.await("the /after marker of " + service, WAIT,
                () -> client.serverMetric(service, "GET", "/after"), row -> row.path("count").asLong() >= 1);
    }

    /** The client metric rows of this run (for one target host, unless null). */
    List<JsonNode> clientRows(CollectorClient client, String host) {
        List<JsonNode> rows = new ArrayList<>();
        for (JsonNode row : client.httpMetrics(service)) {
            if ("client".equals(row.path("kind").asText()) && (host == null || host.equals(row.path("target").asText()))) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** The latest value of one of the agent's own gauges (e.g. agent.classes.transformed). */
    static double gauge(CollectorClient client, String service, String name) {
        JsonNode value = CollectorClient.await(name + " of " + service, WAIT,
                () -> {
                    JsonNode instances = client.jvmMetrics(service).path("instances");
                    return instances.size() == 0 ? null : instances.get(0).path("latest").path(name);
                }, JsonNode::isNumber);
        return value.asDouble();
    }

    static JsonNode row(List<JsonNode> rows, String method, int status) {
        for (JsonNode row : rows) {
            if (method.equals(row.path("method").asText()) && row.path("status").asInt() == status) {
                return row;
            }
        }
        return null;
    }

    static String label(String javaHome) {
        return javaHome.equals(System.getProperty("java.home")) ? "jdk" + Runtime.version().feature()
                : Paths.get(javaHome).getFileName().toString().replaceAll("[^A-Za-z0-9]+", "-");
    }

    @Override
    public void close() {
        app.close();
    }

    /** A W3C traceparent split into its ids (lower-case hex). */
    record TraceContext(String traceId, String spanId) {
        static TraceContext parse(String traceparent) {
            if (traceparent == null || "null".equals(traceparent)) {
                return null;
            }
            String[] parts = traceparent.split("-");
            if (parts.length != 4 || parts[1].length() != 32 || parts[2].length() != 16) {
                throw new AssertionError("not a traceparent: " + traceparent);
            }
            return new TraceContext(parts[1].toLowerCase(), parts[2].toLowerCase());
        }
    }
}
