package io.argus.distribution;

import com.example.absent.LookalikeConnection;
import com.example.absent.LookalikeStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.argus.distribution.apps.NoLibrariesApp;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The full agent (every plugin of the distribution) on an application that has none of the
 * instrumented libraries: the only classes transformed are the JDK classes the executors plugin
 * targets, and the only classes that get past the name check are those plus the application's two
 * classes whose names match the jdbc plugin's name hints (their class file headers then show they
 * implement no JDBC type, and ByteBuddy never parses them). Every other library plugin costs a name
 * check per loaded class and nothing more.
 */
class AbsentLibrariesIT {

    /** What the executors plugin instruments: JDK classes, all loaded by any application. */
    private static final Set<String> EXECUTORS_TARGETS = Set.of(
            "java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.FutureTask",
            "java.util.concurrent.ForkJoinPool", "java.util.concurrent.ForkJoinTask", "java.lang.Thread");

    private static final Pattern INSTRUMENTED = Pattern.compile("\\[argus] DEBUG instrumented (\\S+)");
    private static final Pattern EXAMINED = Pattern.compile("\\[argus] DEBUG transform of (\\S+) took");

    private static String testClasses() {
        return Paths.get(System.getProperty("argus.home")).getParent().resolve("test-classes").toString();
    }

    @Test
    void onlyTheJdkClassesOfTheExecutorsPluginAreTransformed() throws Exception {
        Path plugins = AgentApp.agentDir().resolve("plugins");
        try (var jars = Files.list(plugins)) {
            assertThat(jars.map(p -> p.getFileName().toString()).toList())
                    .contains("argus-plugin-jdbc.jar", "argus-plugin-executors.jar", "argus-plugin-jetty.jar");
        }
        AgentApp.Builder builder = AgentApp.builder(NoLibrariesApp.class.getName())
                .classpath(testClasses())
                .samplingRate(0)
                .agent("argus.log.level", "debug")
                .jvmArg("-Dstay.ms=60000");
        String logs = System.getProperty("argus.test.logs");
        if (logs != null) {
            builder.logTo(Paths.get(logs, "absent-libraries.log"));
        }
        try (TestCollector collector = TestCollector.start();
             AgentApp app = builder.service("absent-libraries").collector(collector.ingestPort()).start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(60));
            // JDK classes loaded before the engine was ready are retransformed by the start-up thread,
            // which may still be at it when the application is done
            for (String expected : List.of("java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.FutureTask",
                    "java.lang.Thread")) {
                app.awaitLine("\\[argus] DEBUG instrumented " + Pattern.quote(expected) + "$", Duration.ofSeconds(60));
            }
            List<String> lines = app.lines();
            Set<String> instrumented = matches(lines, INSTRUMENTED);
            Set<String> examined = matches(lines, EXAMINED);

            assertThat(instrumented).as("classes the agent transformed").isSubsetOf(EXECUTORS_TARGETS)
                    .contains("java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.FutureTask",
                            "java.lang.Thread");
            Set<String> allowed = new TreeSet<>(EXECUTORS_TARGETS);
            allowed.add(LookalikeStatement.class.getName());
            allowed.add(LookalikeConnection.class.getName());
            assertThat(examined).as("classes past the name check at all").isSubsetOf(allowed)
                    .as("the lookalikes reach the hierarchy check (and fail it)")
                    .contains(LookalikeStatement.class.getName(), LookalikeConnection.class.getName());

            CollectorClient api = collector.client();
            JsonNode gauges = CollectorClient.await("the agent's gauges", Duration.ofSeconds(30),
                    () -> api.jvmMetrics("absent-libraries"),
                    m -> m.path("instances").size() == 1
                            && m.path("instances").get(0).path("latest").has("agent.classes.transformed"))
                    .path("instances").get(0).path("latest");
            assertThat(gauges.path("agent.classes.transformed").asLong()).isEqualTo(instrumented.size());
            assertThat(gauges.path("agent.advice.errors").asLong()).isZero();
        }
    }

    private static Set<String> matches(List<String> lines, Pattern pattern) {
        Set<String> out = new TreeSet<>();
        for (String line : lines) {
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                out.add(m.group(1).replace('/', '.'));
            }
        }
        return out;
    }
}
