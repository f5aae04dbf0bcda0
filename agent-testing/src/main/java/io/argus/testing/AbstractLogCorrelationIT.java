package io.argus.testing;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A logging library's trace-id plugin against one of its versions in a forked JVM with the agent. The
 * test application logs outside any span, in a server span, in a child span, back in the server span
 * and after both ended, through a plain and an async appender; every line must carry the ids of the
 * span current when it was logged, as the collector recorded them, and none outside.
 */
public abstract class AbstractLogCorrelationIT extends AbstractCollectorIT {

    /** The plugin's name, e.g. {@code logback}: its switch, the service names and the system properties. */
    protected abstract String plugin();

    /** The application's main class. */
    protected abstract String mainClass();

    protected String version(String which) {
        return System.getProperty("argus.test." + plugin() + "." + which);
    }

    /** Logs in every scenario; {@code app} is {@link #app} with whatever the test adds. */
    protected void verifyIdsOfTheCurrentSpan(String service, AgentApp.Builder app) {
        try (ClientAppRun run = ClientAppRun.startGated(app, service, api)) {
            Map<String, String> server = run.first("SPAN", "server");
            Map<String, String> child = run.first("SPAN", "child");
            assertThat(child.get("traceId")).isEqualTo(server.get("traceId"));
            assertThat(child.get("spanId")).isNotEqualTo(server.get("spanId"));

            for (String suffix : List.of("", ".async")) {
                assertNoIds(run, "outside" + suffix);
                assertIds(run, "server" + suffix, server);
                assertIds(run, "child" + suffix, child);
                assertIds(run, "server-again" + suffix, server);
                assertNoIds(run, "after" + suffix);
                assertThat(run.first("LOG", "after" + suffix).get("user")).as("the application's own context").isEqualTo("u1");
            }

            JsonNode trace = awaitTrace(server.get("traceId"), 2);
            assertThat(span(trace, "SERVER").path("spanId").asText()).isEqualTo(server.get("spanId"));
            assertThat(span(trace, "INTERNAL").path("spanId").asText()).isEqualTo(child.get("spanId"));
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    /** With the plugin switched off: no ids anywhere, the application's context intact, nothing transformed. */
    protected void verifyNothingWhenDisabled() {
        String service = plugin() + "-off";
        AgentApp.Builder app = app(service, version("newest"), JDK).agent("argus.plugin." + plugin() + ".enabled", false);
        try (ClientAppRun run = ClientAppRun.startGated(app, service, api)) {
            assertThat(run.has("SPAN", "server")).isTrue();
            for (String tag : List.of("server", "server.async", "child", "child.async")) {
                assertNoIds(run, tag);
                assertThat(run.first("LOG", tag).get("user")).isEqualTo("u1");
            }
            assertThat(agentGauge(service, "agent.classes.transformed")).isZero();
        }
    }

    private static void assertIds(ClientAppRun run, String tag, Map<String, String> span) {
        Map<String, String> line = run.first("LOG", tag);
        assertThat(line.get("trace_id")).as("trace_id of %s", tag).isEqualTo(span.get("traceId")).hasSize(32);
        assertThat(line.get("span_id")).as("span_id of %s", tag).isEqualTo(span.get("spanId")).hasSize(16);
        assertThat(line.get("trace_flags")).as("trace_flags of %s", tag).isEqualTo("01");
    }

    private static void assertNoIds(ClientAppRun run, String tag) {
        Map<String, String> line = run.first("LOG", tag);
        assertThat(line.get("trace_id")).as("trace_id of %s", tag).isEmpty();
        assertThat(line.get("span_id")).as("span_id of %s", tag).isEmpty();
        assertThat(line.get("trace_flags")).as("trace_flags of %s", tag).isEmpty();
    }

    /** The application on one version's jars (under {@code argus.test.<plugin>.jars}), at 100% sampling. */
    protected AgentApp.Builder app(String service, String version, String javaHome) {
        Path jars = Paths.get(System.getProperty("argus.test." + plugin() + ".jars"), version);
        assertThat(Files.isDirectory(jars)).as("jars of %s %s in %s", plugin(), version, jars).isTrue();
        return AgentApp.builder(mainClass())
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(100)
                .classpath(System.getProperty("argus.test." + plugin() + ".app") + File.pathSeparator + jars(jars))
                .withTestingApp();
    }

    private static String jars(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(f -> f.toString().endsWith(".jar")).map(Path::toString).sorted()
                    .collect(Collectors.joining(File.pathSeparator));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
