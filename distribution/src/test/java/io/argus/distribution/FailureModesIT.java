package io.argus.distribution;

import io.argus.distribution.apps.ClassVisibilityApp;
import io.argus.testing.AgentApp;
import io.argus.testing.TempFolders;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** However the agent is switched off or broken, the application starts and runs. */
class FailureModesIT {

    private static String testClasses() {
        return Paths.get(System.getProperty("argus.home")).getParent().resolve("test-classes").toString();
    }

    private static AgentApp.Builder app() {
        return AgentApp.builder(ClassVisibilityApp.class.getName()).classpath(testClasses())
                .agent("argus.exporter.mode", "discard").args("io.argus.bridge.server.ServerCalls");
    }

    private static List<String> agentLines(AgentApp app) {
        return app.lines().stream().filter(l -> l.startsWith("[argus]")).collect(Collectors.toList());
    }

    @Test
    void disabledAgentLeavesTheJvmUntouched() {
        try (AgentApp app = app().agent("argus.enabled", "false").start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(30));
            assertThat(agentLines(app)).isEmpty();
            assertThat(app.output()).contains("CLASS io.argus.bridge.server.ServerCalls HIDDEN");
        }
    }

    @Test
    void brokenInstallationLogsOneLineAndTheApplicationRuns() throws IOException {
        Path broken = Files.createTempDirectory("argus-broken-agent");
        Path agent = Paths.get(System.getProperty("argus.agent.dir"));
        Files.createDirectories(broken.resolve("lib"));
        Files.copy(agent.resolve("argus-agent.jar"), broken.resolve("argus-agent.jar"));
        Files.copy(agent.resolve("lib/argus-bridge.jar"), broken.resolve("lib/argus-bridge.jar"));
        // lib/argus-core.jar is missing
        try (AgentApp app = app().agentDir(broken).jvmArg("-Dstay.ms=3000").start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(30));
            app.awaitLine("agent failed to start", Duration.ofSeconds(30));
            assertThat(agentLines(app)).hasSize(1);
            assertThat(agentLines(app).get(0)).contains("agent failed to start").contains("argus-core.jar");
        } finally {
            TempFolders.delete(broken);
        }
    }

    @Test
    void anUnreadableIndexStartsTheAgentOnceOnMainAfterTheStartThreadIsDone() throws IOException {
        Path copy = Files.createTempDirectory("argus-bad-index");
        try {
            copyTree(Paths.get(System.getProperty("argus.agent.dir")), copy);
            // the start-up thread defines the bridge while premain reads this; premain then starts the agent itself
            Files.write(copy.resolve("lib/probes"), "nonsense here\n".getBytes(StandardCharsets.UTF_8));
            try (AgentApp app = app().agentDir(copy).withTestingApp().jvmArg("-Dawait.agent=true").start()) {
                app.awaitLine("^DONE$", Duration.ofSeconds(30));
                assertThat(app.output()).contains("CLASS io.argus.bridge.server.ServerCalls VISIBLE");
                List<String> lines = agentLines(app);
                assertThat(lines).filteredOn(l -> l.contains("cannot read the plugins' index")).singleElement()
                        .asString().contains("'nonsense here'").contains("argus.startup.mode=premain instead");
                assertThat(lines).filteredOn(l -> l.matches("\\[argus\\] Argus .* started .*")).singleElement()
                        .asString().contains("startup=premain");
                assertThat(lines).noneMatch(l -> l.contains("failed"));
            }
        } finally {
            TempFolders.delete(copy);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.collect(Collectors.toList())) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
    }

    @Test
    void badConfigValueIsReportedAndTheDefaultUsed() {
        // the agent reads its settings on its start-up thread while main runs: the application stays until it did
        try (AgentApp app = app().agent("argus.tracing.samplingRate", "lots")
                .agent("argus.metrics.interval", "-5s").jvmArg("-Dstay.ms=60000").start()) {
            app.awaitLine("\\[argus\\] Argus .* started", Duration.ofSeconds(30));
            assertThat(app.output())
                    .contains("invalid value 'lots' for argus.tracing.samplingRate: expected a number from 0 to 100; using the default 0")
                    .contains("invalid value '-5s' for argus.metrics.interval")
                    .contains("[argus] Argus");
        }
    }

    @Test
    void everyPluginLoadsFromTheDistribution() throws IOException {
        try (Stream<Path> plugins = Files.list(Paths.get(System.getProperty("argus.agent.dir"), "plugins"))) {
            assertThat(plugins.map(p -> p.getFileName().toString()).collect(Collectors.toList()))
                    .contains("argus-plugin-jvm.jar", "argus-plugin-jetty.jar");
        }
        try (AgentApp app = app().jvmArg("-Dstay.ms=60000").start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(30));
            String started = app.awaitLine("\\[argus\\] Argus .* started", Duration.ofSeconds(30)).group();
            assertThat(app.output()).containsPattern("plugins=\\[.*jvm.*\\]").containsPattern("plugins=\\[.*jetty.*\\]");
            assertThat(started).isNotEmpty();
        }
    }
}
