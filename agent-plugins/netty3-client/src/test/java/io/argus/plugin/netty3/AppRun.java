package io.argus.plugin.netty3;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One run of the test application: what it printed, and where its data went. */
final class AppRun implements AutoCloseable {

    private static final Pattern FIELD = Pattern.compile("(\\w[\\w-]*)=(\\S*)");

    final AgentApp app;
    final String service;
    final int port;
    final int closedPort;
    final int pipelinePort;
    private final List<Map<String, String>> lines = new ArrayList<>();

    private AppRun(AgentApp app, String service) {
        this.app = app;
        this.service = service;
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
        Map<String, String> server = first("SERVER", null);
        this.port = Integer.parseInt(server.get("port"));
        this.closedPort = Integer.parseInt(server.get("closedPort"));
        this.pipelinePort = Integer.parseInt(server.get("pipelinePort"));
    }

    static AppRun start(String javaHome, String classpath, String service, CollectorClient collector, int ingestPort,
                        double samplingRate, Map<String, String> agentProperties) {
        Path gate = gateFile(service);
        AgentApp.Builder builder = AgentApp.builder("io.argus.plugin.netty3.app.Netty3ClientApp")
                .jvmArg("-Dargus.test.gate=" + gate)
                .javaHome(javaHome)
                .classpath(classpath)
                .service(service)
                .collector(ingestPort)
                .samplingRate(samplingRate);
        agentProperties.forEach(builder::agent);
        String logs = System.getProperty("argus.test.logs");
        if (logs != null) {
            builder.logTo(Paths.get(logs, service + ".log"));
        }
        AgentApp app = builder.start();
        try {
            openGate(app, collector, service, gate);
            return new AppRun(app, service);
        } catch (RuntimeException e) {
            app.close();
            throw e;
        }
    }

    /**
     * The application waits for this file before its first call, and the test creates it once the
     * agent is connected to the collector: spans recorded before that could be dropped by design.
     */
    private static Path gateFile(String service) {
        try {
            Path dir = Files.createTempDirectory("argus-gate");
            return dir.resolve(service.replaceAll("[^A-Za-z0-9.-]", "_"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void openGate(AgentApp app, CollectorClient collector, String service, Path gate) {
        CollectorClient.await("agent of " + service + " connected", Duration.ofSeconds(30), collector::agents, agents -> {
            for (JsonNode agent : agents) {
                if (service.equals(agent.path("service").asText()) && agent.path("connected").asBoolean()) {
                    return true;
                }
            }
            if (!app.isAlive()) {
                throw new IllegalStateException("application exited:\n" + app.output());
            }
            return false;
        });
        try {
            Files.createFile(gate);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first output line of this kind (and tag, unless null); fails if there is none. */
    Map<String, String> first(String kind, String tag) {
        for (Map<String, String> line : lines) {
            if (line.get("#").equals(kind) && (tag == null || tag.equals(line.get("tag")))) {
                return line;
            }
        }
        throw new AssertionError("no " + kind + " line for tag " + tag + " in output:\n" + app.output());
    }

    boolean has(String kind, String tag) {
        for (Map<String, String> line : lines) {
            if (line.get("#").equals(kind) && tag.equals(line.get("tag"))) {
                return true;
            }
        }
        return false;
    }

    /** The traceparent the downstream server received for the call tagged {@code tag}, or null. */
    String receivedTraceparent(String tag) {
        String value = first("RECEIVED", tag).get("traceparent");
        return "null".equals(value) ? null : value;
    }

    /** The W3C trace context of the hand-made parent span of the call tagged {@code tag}. */
    TraceContext root(String tag) {
        return TraceContext.parse(first("ROOT", tag).get("traceparent"));
    }

    /** Waits until the collector has the {@code /after} marker: every metric recorded before it is stored. */
    void awaitAllMetricsStored(CollectorClient client) {
        app.awaitLine("^AFTER$", Duration.ofSeconds(30));
        CollectorClient.await("the /after marker of " + service, Duration.ofSeconds(30),
                () -> client.serverMetric(service, "GET", "/after"), row -> row.path("count").asLong() >= 1);
    }

    /** The client metric rows of this run (for one target host unless null). */
    List<JsonNode> clientRows(CollectorClient client, String host) {
        List<JsonNode> rows = new ArrayList<>();
        for (JsonNode row : client.httpMetrics(service)) {
            if ("client".equals(row.path("kind").asText()) && (host == null || host.equals(row.path("target").asText()))) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** The agent's latest value of a JVM/agent gauge. */
    double gauge(CollectorClient client, String name) {
        // the first metrics flush may still be on its way
        JsonNode instances = CollectorClient.await("gauges of " + service, java.time.Duration.ofSeconds(30),
                () -> client.jvmMetrics(service).path("instances"), i -> i.size() == 1 && i.get(0).path("latest").has(name));
        if (instances.size() != 1) {
            throw new AssertionError("expected one instance of " + service + ": " + instances);
        }
        JsonNode value = instances.get(0).path("latest").path(name);
        if (!value.isNumber()) {
            throw new AssertionError("no gauge " + name + " in " + instances.get(0).path("latest"));
        }
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
        return Paths.get(javaHome).getFileName().toString().replaceAll("[^A-Za-z0-9]+", "-");
    }

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
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
