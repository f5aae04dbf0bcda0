package io.argus.plugin.method;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.plugin.method.app.Inventory;
import io.argus.plugin.method.app.MethodApp;
import io.argus.plugin.method.app.Shop;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The method plugin under the real agent, in forked JVMs, against a real collector. */
class MethodPluginIT {

    static final String SERVICE = "method-app";
    static final String SHOP = Shop.class.getName();
    static final String INVENTORY = Inventory.class.getName();
    static final Duration WAIT = Duration.ofSeconds(30);

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void nestedCallsBecomeParentAndChildInternalSpans(String javaHome) {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = start(javaHome, collector, "nested", 100,
                     SHOP + "#checkout, " + SHOP + "#price ," + INVENTORY + " # reserve")) {
            app.awaitLine("DONE", WAIT);
            JsonNode trace = awaitTraceWithRoot(collector, SHOP + ".checkout", 3);
            Map<String, JsonNode> byName = byName(trace);
            assertThat(byName).containsOnlyKeys(SHOP + ".checkout", SHOP + ".price", INVENTORY + ".reserve");
            JsonNode root = byName.get(SHOP + ".checkout");
            assertThat(root.path("parentSpanId").isNull()).as("checkout is a root: " + root).isTrue();
            for (JsonNode span : trace.path("spans")) {
                assertThat(span.path("kind").asText()).isEqualTo("INTERNAL");
                assertThat(span.path("status").asText()).isEqualTo("OK");
                assertThat(span.path("service").asText()).isEqualTo(SERVICE);
            }
            for (String child : List.of(SHOP + ".price", INVENTORY + ".reserve")) {
                assertThat(byName.get(child).path("parentSpanId").asText()).as(child)
                        .isEqualTo(root.path("spanId").asText());
                assertThat(byName.get(child).path("durationNanos").asLong())
                        .isLessThanOrEqualTo(root.path("durationNanos").asLong());
            }
            // the other call of reserve, from main, is a trace of its own
            assertThat(allSpans(collector)).filteredOn(s -> s.path("name").asText().equals(INVENTORY + ".reserve"))
                    .hasSize(2).anySatisfy(s -> assertThat(s.path("parentSpanId").isNull()).isTrue());
            assertThat(app.output()).contains("checkout=21").doesNotContain("[argus] ERROR").doesNotContain("[argus] WARN");
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void rootsAtFullSamplingAndNoneAtZero(String javaHome) {
        String methods = SHOP + "#checkout";
        try (TestCollector collector = TestCollector.start();
             AgentApp app = start(javaHome, collector, "root-100", 100, methods)) {
            app.awaitLine("DONE", WAIT);
            JsonNode trace = awaitTraceWithRoot(collector, SHOP + ".checkout", 1);
            assertThat(trace.path("spans")).hasSize(1);
        }
        try (TestCollector collector = TestCollector.start();
             AgentApp app = start(javaHome, collector, "root-0", 0, methods)) {
            app.awaitLine("DONE", WAIT);
            JsonNode latest = awaitAgentSamplesAfterDone(collector);
            assertThat(latest.path("agent.classes.transformed").asDouble()).as("Shop was instrumented").isGreaterThanOrEqualTo(1);
            assertThat(latest.path("agent.spans.sent").asDouble()).isZero();
            assertThat(latest.path("agent.spans.dropped").asDouble()).isZero();
            assertThat(collector.client().traces(SERVICE, 100)).isEmpty();
            assertThat(app.output()).contains("checkout=21").contains("sampling=0.0%").containsPattern("plugins=\\[.*method");
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void wildcardTracesEveryDeclaredMethodButConstructorsAndLambdas(String javaHome) {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = start(javaHome, collector, "wildcard", 100, INVENTORY + "#*")) {
            app.awaitLine("DONE", WAIT);
            // Shop's inventory: reserve(3) > check; main: reserve(2) > check, release, count
            List<JsonNode> spans = CollectorClient.await("6 Inventory spans", WAIT, () -> allSpans(collector),
                    s -> s.size() >= 6);
            Map<String, Long> counts = spans.stream().collect(Collectors.groupingBy(s -> s.path("name").asText(),
                    Collectors.counting()));
            assertThat(counts).containsOnly(Map.entry(INVENTORY + ".reserve", 2L), Map.entry(INVENTORY + ".check", 2L),
                    Map.entry(INVENTORY + ".release", 1L), Map.entry(INVENTORY + ".count", 1L));
            Map<String, JsonNode> byId = new HashMap<>();
            spans.forEach(s -> byId.put(s.path("spanId").asText(), s));
            for (JsonNode check : spans) {
                if (check.path("name").asText().endsWith(".check")) {
                    JsonNode parent = byId.get(check.path("parentSpanId").asText());
                    assertThat(parent).as("parent of " + check).isNotNull();
                    assertThat(parent.path("name").asText()).isEqualTo(INVENTORY + ".reserve");
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void exceptionPropagatesUnchangedAndMarksTheSpan(String javaHome) {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = start(javaHome, collector, "error", 100, SHOP + "#fail")) {
            app.awaitLine("DONE", WAIT);
            assertThat(app.output()).contains("CAUGHT java.lang.IllegalStateException message=boom same=true top="
                    + SHOP + ".fail").doesNotContain("NOT THROWN");
            JsonNode trace = awaitTraceWithRoot(collector, SHOP + ".fail", 1);
            JsonNode span = trace.path("spans").get(0);
            assertThat(span.path("status").asText()).isEqualTo("ERROR");
            assertThat(span.path("tags").path("error").asText()).isEqualTo("java.lang.IllegalStateException");
            assertThat(app.output()).doesNotContain("probe error");
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void malformedEntriesAreReportedAndTheOthersStillWork(String javaHome) {
        String methods = " nonsense , " + SHOP + "#checkout,,com.acme.Foo#, #bar , a.b#c#d, 1x.Y#z , " + SHOP + "#<init>";
        try (TestCollector collector = TestCollector.start();
             AgentApp app = start(javaHome, collector, "malformed", 100, methods)) {
            app.awaitLine("DONE", WAIT);
            awaitTraceWithRoot(collector, SHOP + ".checkout", 1);
            List<String> errors = app.lines().stream().filter(l -> l.startsWith("[argus] ERROR plugin method:"))
                    .collect(Collectors.toList());
            assertThat(errors).hasSize(6);
            for (String bad : List.of("'nonsense'", "'com.acme.Foo#'", "'#bar'", "'a.b#c#d'", "'1x.Y#z'", "'" + SHOP + "#<init>'")) {
                assertThat(errors).anySatisfy(line -> assertThat(line).contains("malformed entry " + bad));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void switchedOff(String javaHome) {
        try (TestCollector collector = TestCollector.start();
             AgentApp app = AgentApp.builder(MethodApp.class.getName()).javaHome(javaHome)
                     .collector(collector.ingestPort()).service(SERVICE).samplingRate(100)
                     .agent(MethodTargets.KEY, SHOP + "#checkout").agent("argus.plugin.method.enabled", "false")
                     .logTo(log("off", javaHome)).start()) {
            app.awaitLine("DONE", WAIT);
            JsonNode latest = awaitAgentSamplesAfterDone(collector);
            assertThat(latest.path("agent.spans.sent").asDouble()).isZero();
            assertThat(latest.path("agent.classes.transformed").asDouble()).isZero();
            assertThat(collector.client().traces(SERVICE, 100)).isEmpty();
            assertThat(app.output()).contains("checkout=21").doesNotContainPattern("plugins=\\[.*method");
        }
    }

    // ---------------------------------------------------------------- helpers

    private static AgentApp start(String javaHome, TestCollector collector, String name, int samplingRate, String methods) {
        return AgentApp.builder(MethodApp.class.getName()).javaHome(javaHome)
                .collector(collector.ingestPort()).service(SERVICE).samplingRate(samplingRate)
                .agent(MethodTargets.KEY, methods).logTo(log(name, javaHome)).start();
    }

    private static Path log(String name, String javaHome) {
        return Paths.get(System.getProperty("argus.test.logs", "target/app-logs"),
                "method-" + name + "-" + Paths.get(javaHome).getFileName() + ".log");
    }

    /** The trace whose root has this name, once it holds {@code spans} spans. */
    private static JsonNode awaitTraceWithRoot(TestCollector collector, String rootName, int spans) {
        return CollectorClient.await("a trace rooted at " + rootName + " with " + spans + " spans", WAIT, () -> {
            for (JsonNode summary : collector.client().traces(SERVICE, 100)) {
                if (summary.path("rootName").asText().equals(rootName)) {
                    JsonNode detail = collector.client().trace(summary.path("traceId").asText());
                    if (detail != null && detail.path("spans").size() >= spans) {
                        return detail;
                    }
                }
            }
            return null;
        }, t -> true);
    }

    private static List<JsonNode> allSpans(TestCollector collector) {
        List<JsonNode> spans = new ArrayList<>();
        for (JsonNode summary : collector.client().traces(SERVICE, 100)) {
            JsonNode detail = collector.client().trace(summary.path("traceId").asText());
            if (detail != null) {
                detail.path("spans").forEach(spans::add);
            }
        }
        return spans;
    }

    private static Map<String, JsonNode> byName(JsonNode trace) {
        Map<String, JsonNode> out = new HashMap<>();
        trace.path("spans").forEach(s -> out.put(s.path("name").asText(), s));
        assertThat(out).as("span names are unique in " + trace).hasSize(trace.path("spans").size());
        return out;
    }

    /**
     * The agent's own gauges, once two samples were taken after the application printed DONE
     * (the agent reports once per second in these tests), so every span would have been sent.
     */
    private static JsonNode awaitAgentSamplesAfterDone(TestCollector collector) {
        int[] seenAtDone = {-1};
        JsonNode jvm = CollectorClient.await("two agent samples after DONE", WAIT,
                () -> collector.client().jvmMetrics(SERVICE),
                j -> {
                    if (j.path("instances").size() != 1) {
                        return false;
                    }
                    int samples = j.path("instances").get(0).path("series").path("agent.spans.sent").size();
                    if (seenAtDone[0] < 0) {
                        seenAtDone[0] = samples;
                    }
                    return samples >= seenAtDone[0] + 2;
                });
        return jvm.path("instances").get(0).path("latest");
    }
}
