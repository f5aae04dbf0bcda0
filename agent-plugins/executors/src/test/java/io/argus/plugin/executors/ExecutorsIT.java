package io.argus.plugin.executors;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.executors.app.ExecutorsApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plugin against the JDK's own executors, in forked JVMs with the real agent at 100% and a
 * real collector: every task's span must be a child of the server span it was submitted under,
 * and no thread may keep a context after its traced work.
 */
class ExecutorsIT extends AbstractCollectorIT {

    private static AgentApp start(String javaHome, String service, Map<String, String> agent, String... jvmArgs) {
        return start(AgentApp.builder(ExecutorsApp.class.getName()), javaHome, service, agent, jvmArgs);
    }

    private static AgentApp start(AgentApp.Builder builder, String javaHome, String service, Map<String, String> agent,
                                  String... jvmArgs) {
        builder.javaHome(javaHome).service(service).collector(collector.ingestPort()).samplingRate(100);
        agent.forEach(builder::agent);
        for (String arg : jvmArgs) {
            builder.jvmArg(arg);
        }
        return builder.logToTestLogs(service).startAndAwaitDone(Duration.ofSeconds(60));
    }

    /** tag -> fields of every line of one kind. */
    private static Map<String, Map<String, String>> lines(AgentApp app, String kind) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (String line : app.lines()) {
            if (line.startsWith(kind + " tag=")) {
                Map<String, String> fields = new HashMap<>();
                for (String part : line.substring(kind.length() + 1).split(" ", -1)) {
                    int eq = part.indexOf('=');
                    if (eq > 0) {
                        fields.put(part.substring(0, eq), part.substring(eq + 1));
                    }
                }
                fields.put("#line", line);
                out.put(fields.get("tag"), fields);
            }
        }
        return out;
    }

    /** Every scenario's tasks made spans that are children of the span they were submitted under. */
    private static void assertPropagated(AgentApp app) {
        assertPropagated(app, 29);
    }

    private static void assertPropagated(AgentApp app, int scenarios) {
        Map<String, Map<String, String>> roots = lines(app, "ROOT");
        assertThat(roots).hasSize(scenarios);
        long deadline = System.nanoTime() + WAIT.toNanos();
        List<String> problems = problems(roots);
        while (!problems.isEmpty() && System.nanoTime() < deadline) {
            sleep(250);
            problems = problems(roots);
        }
        assertThat(problems).isEmpty();
    }

    private static List<String> problems(Map<String, Map<String, String>> roots) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Map<String, String>> root : roots.entrySet()) {
            String tag = root.getKey();
            String[] parts = root.getValue().get("traceparent").split("-");
            int expected = Integer.parseInt(root.getValue().get("expected"));
            JsonNode trace = api.trace(parts[1]);
            if (trace == null) {
                problems.add(tag + ": no trace " + parts[1]);
                continue;
            }
            int tasks = 0;
            for (JsonNode span : trace.path("spans")) {
                if ("INTERNAL".equals(span.path("kind").asText())) {
                    tasks++;
                    if (!span.path("name").asText().equals("task " + tag)
                            || !span.path("parentSpanId").asText().equalsIgnoreCase(parts[2])) {
                        problems.add(tag + ": unexpected span " + span);
                    }
                }
            }
            if (tasks != expected) {
                problems.add(tag + ": " + tasks + " task spans, expected " + expected + " in " + trace);
            }
        }
        return problems;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void assertNoStaleContext(AgentApp app) {
        assertNoStaleContext(app, "thread", "tpe", "stpe", "fjp", "fjp-task", "cf", "jetty-pool", "main");
    }

    private static void assertNoStaleContext(AgentApp app, String... checks) {
        Map<String, Map<String, String>> stale = lines(app, "STALE");
        assertThat(stale.keySet()).containsExactlyInAnyOrder(checks);
        stale.forEach((tag, fields) -> assertThat(fields.get("current")).as("stale context on %s", tag).isEqualTo("false"));
        assertThat(lines(app, "LEAK")).isEmpty();
    }

    private static void assertBehaviourUnchanged(AgentApp app) {
        assertThat(lines(app, "QUEUE").get("tpe").get("#line")).isEqualTo("QUEUE tag=tpe removed=true left=1 unwrapped=true");
        assertThat(lines(app, "AFTER").get("submit").get("#line")).isEqualTo("AFTER tag=submit seen=[future]");
        assertThat(lines(app, "PRIORITY").get("tpe").get("#line")).isEqualTo("PRIORITY tag=tpe outcome=ran");
    }

    @Test
    void contextFollowsTheWorkAndNeverOutlivesIt() {
        String jdk = JDK;
        // a 2-core machine gives the common pool parallelism 1: CompletableFuture then starts a thread per task
        try (AgentApp app = start(jdk, "executors-17", Map.of())) {
            assertPropagated(app);
            assertNoStaleContext(app);
            assertBehaviourUnchanged(app);
            assertThat(agentGauge("executors-17", "agent.advice.errors")).isZero();
        }
    }

    @Test
    void completableFuturesThroughTheCommonPool() {
        String jdk = JDK;
        try (AgentApp app = start(jdk, "executors-17-common-pool", Map.of(),
                "-Djava.util.concurrent.ForkJoinPool.common.parallelism=3")) {
            assertPropagated(app);
            assertNoStaleContext(app);
        }
    }

    @Test
    void switchedOffNothingIsInstrumentedAndTasksStartTheirOwnTraces() {
        String jdk = JDK;
        try (AgentApp app = start(jdk, "executors-off", Map.of("argus.plugin.executors.enabled", "false"))) {
            Map<String, String> root = lines(app, "ROOT").get("tpe-submit-callable");
            String traceId = root.get("traceparent").split("-")[1];
            JsonNode trace = CollectorClient.await("trace " + traceId + " (traces: " + api.traces("executors-off", 3)
                            + ", agents: " + api.agents() + ")", WAIT, () -> api.trace(traceId),
                    t -> t.path("spans").size() >= 1);
            assertThat(trace.path("spans")).hasSize(1);
            assertBehaviourUnchanged(app);
            assertThat(agentGauge("executors-off", "agent.classes.transformed")).isZero();
        }
    }

    /**
     * Virtual threads on Temurin 25, one carrier: every way to start one, their executor, and
     * StructuredTaskScope (preview); no carrier sees a context, not while a traced virtual thread
     * is parked, nor after; an untraced virtual thread sees none.
     */
    @Test
    void virtualThreadsOnTheNewestJdk() {
        String classpath = AgentApp.applicationClasspath() + File.pathSeparator + System.getProperty("argus.test.vt.app");
        AgentApp.Builder builder = AgentApp.builder("io.argus.plugin.executors.app.VirtualThreadsApp")
                .classpath(classpath).args("scope");
        try (AgentApp app = start(builder, AgentApp.newestJavaHome(), "executors-25-virtual", Map.of(),
                "--enable-preview", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-Djdk.virtualThreadScheduler.parallelism=1")) {
            assertPropagated(app, 18);
            assertNoStaleContext(app, "carrier-while-parked", "vt-outlives-request", "carrier", "vt", "vt-executor", "main");
            assertThat(app.output()).doesNotContain("Exception");
            assertThat(agentGauge("executors-25-virtual", "agent.advice.errors")).isZero();
        }
    }

    @Test
    void basicsOnTheNewestJdk() {
        try (AgentApp app = start(AgentApp.newestJavaHome(), "executors-25", Map.of())) {
            assertPropagated(app);
            assertNoStaleContext(app);
            assertBehaviourUnchanged(app);
            assertThat(agentGauge("executors-25", "agent.advice.errors")).isZero();
        }
    }
}
