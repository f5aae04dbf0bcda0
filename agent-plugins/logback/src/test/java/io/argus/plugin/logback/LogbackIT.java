package io.argus.plugin.logback;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.ClientAppRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The oldest supported and the newest Logback, on JDK 17 and Temurin 25, in a forked JVM with the
 * agent: {@code LogbackApp} logs through a plain and an async appender, and the ids it prints must be
 * those of the span current when it logged, as the collector recorded them.
 */
class LogbackIT extends AbstractCollectorIT {

    static List<Arguments> versionsAndJdks() {
        List<Arguments> all = new ArrayList<>();
        for (String version : List.of(System.getProperty("argus.test.logback.oldest"), System.getProperty("argus.test.logback.newest"))) {
            for (String javaHome : AgentApp.javaHomes()) {
                all.add(Arguments.of(version, javaHome));
            }
        }
        return all;
    }

    @ParameterizedTest(name = "Logback {0} on {1}")
    @MethodSource("versionsAndJdks")
    void eventsCarryTheIdsOfTheSpanCurrentWhenLogged(String version, String javaHome) {
        String service = "logback-" + version + "-" + jdkLabel(javaHome);
        try (ClientAppRun run = ClientAppRun.startGated(app(service, version, javaHome), service, api)) {
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
                assertThat(run.first("LOG", "after" + suffix).get("user")).as("the application's MDC").isEqualTo("u1");
            }

            JsonNode trace = awaitTrace(server.get("traceId"), 2);
            assertThat(span(trace, "SERVER").path("spanId").asText()).isEqualTo(server.get("spanId"));
            assertThat(span(trace, "INTERNAL").path("spanId").asText()).isEqualTo(child.get("spanId"));
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    @Test
    void noIdsAndNothingTransformedWhenDisabled() {
        String version = System.getProperty("argus.test.logback.newest");
        String service = "logback-off";
        AgentApp.Builder app = app(service, version, JDK).agent("argus.plugin.logback.enabled", false);
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

    /** The application on one Logback version's jars, at 100% sampling. */
    private static AgentApp.Builder app(String service, String version, String javaHome) {
        Path jars = Paths.get(System.getProperty("argus.test.logback.jars"), version);
        assertThat(Files.isDirectory(jars)).as("jars of Logback %s in %s", version, jars).isTrue();
        return AgentApp.builder("io.argus.plugin.logback.app.LogbackApp")
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(100)
                .classpath(System.getProperty("argus.test.logback.app") + File.pathSeparator + jars(jars))
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
