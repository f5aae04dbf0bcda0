package io.argus.distribution;

import com.example.absent.LookalikeConnection;
import com.example.absent.LookalikeStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.argus.distribution.apps.NoLibrariesApp;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
 * instrumented libraries. The only advice that goes in is the executors plugin's, on JDK classes, after
 * the start gate opened ({@code ForkJoinTask}, when it loads after the agent, also gets its field), and the only classes that get past the name check are the
 * application's two whose names match the jdbc plugin's name hints (their class file headers then
 * show they implement no JDBC type, and ByteBuddy never parses them). Every other library plugin costs
 * a name check per loaded class and nothing more. The executors' JDK classes are in before the first
 * trace (a traced method here) hands work off.
 */
class AbsentLibrariesIT {

    /** What the executors plugin instruments: JDK classes, all loaded by any application. */
    private static final Set<String> EXECUTORS_TARGETS = Set.of(
            "java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.FutureTask",
            "java.util.concurrent.ForkJoinPool", "java.util.concurrent.ForkJoinTask", "java.lang.Thread");

    private static final Pattern INSTRUMENTED = Pattern.compile("\\[argus] DEBUG instrumented (\\S+)");
    private static final Pattern FIELDS_ADDED = Pattern.compile("\\[argus] DEBUG fields added to (\\S+)");
    private static final Pattern EXAMINED = Pattern.compile("\\[argus] DEBUG transform of (\\S+) took");

    private static String testClasses() {
        return Paths.get(System.getProperty("argus.home")).getParent().resolve("test-classes").toString();
    }

    private static AgentApp.Builder app(String logName) {
        AgentApp.Builder builder = AgentApp.builder(NoLibrariesApp.class.getName())
                .classpath(testClasses())
                .agent("argus.log.level", "debug")
                .jvmArg("-Dstay.ms=60000");
        String logs = System.getProperty("argus.test.logs");
        if (logs != null) {
            builder.logTo(Paths.get(logs, logName + ".log"));
        }
        return builder;
    }

    @Test
    void atZeroPercentOnlyTheExecutorsJdkClassesGetAdviceAndOnlyTheLookalikesPassTheNameCheck() throws Exception {
        Path plugins = AgentApp.agentDir().resolve("plugins");
        try (var jars = Files.list(plugins)) {
            assertThat(jars.map(p -> p.getFileName().toString()).toList())
                    .contains("argus-plugin-jdbc.jar", "argus-plugin-executors.jar", "argus-plugin-jetty.jar");
        }
        try (TestCollector collector = TestCollector.start();
             AgentApp app = app("absent-libraries").samplingRate(0).service("absent-libraries")
                     .collector(collector.ingestPort()).start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(60));
            // the exporter starts after the start-up thread applied the after-gate probes: once the gauges are
            // in, the log holds every transformation of the start-up
            CollectorClient api = collector.client();
            JsonNode gauges = CollectorClient.await("the agent's gauges", Duration.ofSeconds(30),
                    () -> api.jvmMetrics("absent-libraries"),
                    m -> m.path("instances").size() == 1
                            && m.path("instances").get(0).path("latest").has("agent.classes.transformed"))
                    .path("instances").get(0).path("latest");
            List<String> lines = app.lines();
            Set<String> instrumented = matches(lines, INSTRUMENTED);
            instrumented.removeIf(name -> name.startsWith("io.argus.core.")); // the engine's warm-up, its own class
            assertThat(instrumented).as("classes the agent put advice into: the executors' JDK classes only")
                    .contains("java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.FutureTask",
                            "java.lang.Thread")
                    .isSubsetOf(EXECUTORS_TARGETS);
            int applied = app.indexOfLineStartingWith("[argus] DEBUG after-gate probes: ");
            assertThat(applied).as("the after-gate probes applied at 0% too").isNotNegative();
            assertThat(lines.get(applied)).as("by the start-up thread: nothing is traced").contains("on argus-start");
            Set<String> withFields = matches(lines, FIELDS_ADDED);
            assertThat(withFields).as("an owner class that loads after the agent's start-up began gets its field")
                    .isSubsetOf(Set.of("java.util.concurrent.ForkJoinTask"));
            Set<String> examined = matches(lines, EXAMINED);
            examined.removeAll(EXECUTORS_TARGETS);
            assertThat(examined).as("the application's classes past the name check at all")
                    .as("the lookalikes reach the hierarchy check (and fail it)")
                    .containsExactlyInAnyOrder(LookalikeStatement.class.getName(), LookalikeConnection.class.getName());

            Set<String> transformed = new TreeSet<>(instrumented);
            transformed.addAll(withFields);
            assertThat(gauges.path("agent.classes.transformed").asLong()).isEqualTo(transformed.size());
            assertThat(gauges.path("agent.advice.errors").asLong()).isZero();
        }
    }

    /**
     * A lookalike loads first thing in {@code main}, long before the engine is ready, and the gate holds it for the
     * engine, which finds no probe applies. The class cache keeps that answer, so that every start after lets it
     * through at once, as it is.
     */
    @Test
    void aLookalikeTheEngineFoundNoProbeForIsLetThroughAtOnceOnTheStartsAfter(@TempDir Path classCache) throws Exception {
        String letThrough = "[argus] DEBUG let " + LookalikeStatement.class.getName() + " through as it is";
        for (int start = 1; start <= 3; start++) {
            try (AgentApp app = app("absent-libraries-restart-" + start).samplingRate(0)
                    .agent("argus.startup.classCacheDir", classCache).start()) {
                app.awaitLine("^DONE$", Duration.ofSeconds(60));
                app.awaitLine("^\\[argus] Argus .* started in", Duration.ofSeconds(60));
                if (start == 1) {
                    // the engine's answer, kept before this line
                    app.awaitLine("^\\[argus] DEBUG transform of com/example/absent/LookalikeStatement took", Duration.ofSeconds(60));
                }
                List<String> lines = app.lines();
                assertThat(lines).as("start %d: the lookalike gets no advice", start)
                        .noneMatch(line -> line.startsWith("[argus] DEBUG instrumented " + LookalikeStatement.class.getName()));
                if (start == 1) {
                    assertThat(lines).as("start 1 has no cache to ask").noneMatch(line -> line.startsWith(letThrough));
                } else {
                    assertThat(lines).as("start %d: the cache's answer, before the engine was ready", start)
                            .anyMatch(line -> line.startsWith(letThrough))
                            .noneMatch(line -> line.startsWith("[argus] DEBUG transform of com/example/absent/LookalikeStatement"));
                }
            }
        }
    }

    @Test
    void theExecutorsProbesAreInBeforeTheFirstTraceHandsWorkOff() throws Exception {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = app("absent-libraries-traced").samplingRate(100).service("absent-libraries-traced")
                     .agent("argus.trace.methods", NoLibrariesApp.class.getName() + "#work")
                     .collector(collector.ingestPort()).start()) {
            app.awaitLine("^DONE$", Duration.ofSeconds(60));
            List<String> lines = app.lines();
            Set<String> instrumented = matches(lines, INSTRUMENTED);
            // the engine's warm-up weaves a class of the agent's own, once the gate is open
            instrumented.removeIf(name -> name.startsWith("io.argus.core."));
            assertThat(instrumented).as("classes the agent transformed")
                    .contains(NoLibrariesApp.class.getName(), "java.util.concurrent.ThreadPoolExecutor",
                            "java.util.concurrent.FutureTask", "java.lang.Thread");
            Set<String> allowed = new TreeSet<>(EXECUTORS_TARGETS);
            allowed.add(NoLibrariesApp.class.getName());
            assertThat(instrumented).isSubsetOf(allowed);
            int applied = app.indexOfLineStartingWith("[argus] DEBUG after-gate probes: ");
            int workDone = app.indexOfLineStartingWith("DONE");
            assertThat(applied).as("the executors' probes applied before the traced work").isNotNegative()
                    .isLessThan(workDone);
            // the start-up thread applies them once the engine is up, unless the first trace comes first
            assertThat(lines.get(applied)).containsAnyOf("on argus-start", "on main");

            CollectorClient api = collector.client();
            JsonNode traces = CollectorClient.await("the traced method", Duration.ofSeconds(30),
                    () -> api.traces("absent-libraries-traced", 5), t -> t.size() == 1);
            assertThat(traces.get(0).path("rootName").asText()).contains("work");
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
