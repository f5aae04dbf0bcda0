package io.argus.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One run of an HTTP client test application (built on agent-testing-app's {@code Downstream}): what
 * it printed, as lines {@code KIND key=value key=value ...}. The accessors wait until the application
 * has printed {@code DONE}, so all runs of a test class can be started at once.
 */
public final class ClientAppRun implements AutoCloseable {

    private static final Pattern FIELD = Pattern.compile("(\\w[\\w-]*)=(\\S*)");

    public final AgentApp app;
    public final String service;
    private final List<Map<String, String>> lines = new ArrayList<>();
    private boolean done;

    /** The folder of the gate file of {@link #startGated}, deleted on close; null without a gate. */
    private final Path gateDir;

    private ClientAppRun(AgentApp app, String service, Path gateDir) {
        this.app = app;
        this.service = service;
        this.gateDir = gateDir;
    }

    /** Starts the application (logging to the test logs); {@link #done()} waits until it has made all its calls. */
    public static ClientAppRun start(AgentApp.Builder application, String service) {
        return new ClientAppRun(application.logToTestLogs(service).start(), service, null);
    }

    /**
     * Like {@link #start}, for an application that calls {@code Downstream.awaitGate()} before its first
     * call: opens that gate once the agent is connected to the collector (spans recorded before that
     * could be dropped by design, and the tests count every span).
     */
    public static ClientAppRun startGated(AgentApp.Builder application, String service, CollectorClient collector) {
        Path gateDir;
        try {
            gateDir = Files.createTempDirectory("argus-gate");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path gate = gateDir.resolve(service.replaceAll("[^A-Za-z0-9.-]", "_"));
        AgentApp app = application.jvmArg("-Dargus.test.gate=" + gate).logToTestLogs(service).start();
        try {
            CollectorClient.await("agent of " + service + " connected", Duration.ofSeconds(30), () -> {
                if (!app.isAlive()) {
                    throw new IllegalStateException("application exited:\n" + app.output());
                }
                return collector.agentConnected(service);
            }, connected -> connected);
            Files.createFile(gate);
        } catch (IOException e) {
            app.close();
            TempFolders.delete(gateDir);
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            app.close();
            TempFolders.delete(gateDir);
            throw e;
        }
        return new ClientAppRun(app, service, gateDir);
    }

    /** Waits (once) until the application has made all its calls, and reads what it printed. */
    public synchronized ClientAppRun done() {
        if (!done) {
            app.awaitLine("^DONE$", Duration.ofSeconds(90));
            for (String line : app.lines()) {
                int space = line.indexOf(' ');
                if (space > 0 && line.substring(0, space).matches("[A-Z]+")) {
                    Map<String, String> fields = fields(line.substring(space + 1));
                    fields.put("#", line.substring(0, space));
                    lines.add(fields);
                }
            }
            done = true;
        }
        return this;
    }

    /** The downstream server's port. */
    public int port() {
        return serverPort("port");
    }

    /** A port nobody listens on. */
    public int closedPort() {
        return serverPort("closedPort");
    }

    /** A port of the {@code SERVER} line ({@code port}, {@code closedPort}, or one the application added). */
    public int serverPort(String name) {
        return Integer.parseInt(first("SERVER", null).get(name));
    }

    /** The first output line of this kind (and tag, unless null); fails if there is none. */
    public Map<String, String> first(String kind, String tag) {
        List<Map<String, String>> all = all(kind, tag);
        if (all.isEmpty()) {
            throw new AssertionError("no " + kind + " line for tag " + tag + " in output:\n" + app.output());
        }
        return all.get(0);
    }

    /** Every output line of this kind (and tag, unless null), in order. */
    public List<Map<String, String>> all(String kind, String tag) {
        done();
        List<Map<String, String>> found = new ArrayList<>();
        for (Map<String, String> line : lines) {
            if (line.get("#").equals(kind) && (tag == null || tag.equals(line.get("tag")))) {
                found.add(line);
            }
        }
        return found;
    }

    public boolean has(String kind, String tag) {
        return !all(kind, tag).isEmpty();
    }

    /** A line printed after {@code DONE} (e.g. by a server the test calls), waiting for it. */
    public Map<String, String> awaitLine(String kind, String tag) {
        return fields(app.awaitLine("^" + kind + " tag=" + Pattern.quote(tag) + " (.*)$", Duration.ofSeconds(30)).group(1));
    }

    /** A field of an output line, null for a missing value (printed as "null"). */
    public static String value(Map<String, String> line, String key) {
        String value = line.get(key);
        return "null".equals(value) ? null : value;
    }

    /** The traceparent the downstream server received for the call tagged {@code tag}, or null. */
    public String receivedTraceparent(String tag) {
        return value(first("RECEIVED", tag), "traceparent");
    }

    /** The W3C trace context of the hand-made parent span of the call tagged {@code tag} (null if unsampled). */
    public TraceContext root(String tag) {
        return TraceContext.parse(first("ROOT", tag).get("traceparent"));
    }

    @Override
    public void close() {
        app.close();
        TempFolders.delete(gateDir);
    }

    private static Map<String, String> fields(String text) {
        Map<String, String> fields = new HashMap<>();
        Matcher m = FIELD.matcher(text);
        while (m.find()) {
            fields.put(m.group(1), m.group(2));
        }
        return fields;
    }
}
