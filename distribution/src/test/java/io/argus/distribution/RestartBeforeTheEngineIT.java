package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.distribution.apps.HandOffServer;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A restart whose class cache holds every probed class observes before the agent builds its engine (its
 * plugins, ByteBuddy): the cache serves the application's probed classes, the owner classes' fields and the
 * JDK's executors, and the engine waits for a spare core. The application ({@link HandOffServer}: the JDK's HTTP
 * server, a thread pool, the JDK's HTTP client) is started as a user does, and requests are sent as soon as it
 * answers; every trace must come complete and joined across the pool's thread. A class the cache misses (a code
 * path the first start never ran) gets its probes all the same: the engine is built for it at once.
 */
class RestartBeforeTheEngineIT {

    private static final int REQUESTS = 20;

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void aRestartTracesEveryRequestFromTheFirstBeforeItsEngineIsBuilt(String javaHome, @TempDir Path classCache)
            throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            // the first start weaves, and keeps what it wove
            try (Started first = start(javaHome, classCache, collector, "first")) {
                tracedHops(first, collector, 3);
                first.app.awaitLine(", classCache=cold,", Duration.ofSeconds(60));
            }
            try (Started restart = start(javaHome, classCache, collector, "restart")) {
                tracedHops(restart, collector, REQUESTS);
                restart.app.awaitLine(", classCache=warm,", Duration.ofSeconds(60));
                restart.app.awaitLine("^\\[argus] DEBUG start-up: engine ready after ", Duration.ofSeconds(60));
                List<String> lines = restart.app.lines();
                int observing = indexOf(lines, "[argus] DEBUG start-up: observing after ");
                int engineReady = indexOf(lines, "[argus] DEBUG start-up: engine ready after ");
                assertThat(observing).as("it observed from the class cache").isNotNegative();
                assertThat(engineReady).as("before its engine was ready").isGreaterThan(observing);
                assertThat(indexOf(lines, "[argus] Argus ")).as("the start line says so, before the engine")
                        .isBetween(0, observing);
                assertThat(lines).as("the engine waited for a spare core, no class missed the cache")
                        .noneMatch(line -> line.contains("until a class missed the class cache"))
                        .noneMatch(line -> line.startsWith("[argus] DEBUG class cache: no entry for"))
                        .anyMatch(line -> line.startsWith("[argus] DEBUG instrumented java.util.concurrent.ThreadPoolExecutor"
                                + " from the class cache before the engine was ready"))
                        .anyMatch(line -> line.startsWith("[argus] DEBUG instrumented sun.net.httpserver.ServerImpl$Exchange$LinkHandler"
                                + " from the class cache before the engine was ready"))
                        .noneMatch(line -> line.contains("without its probes"));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void aClassTheCacheMissesOnARestartHasTheEngineBuiltForItAtOnce(String javaHome, @TempDir Path classCache)
            throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            // the first start serves /leaf alone: the JDK's HTTP client never loads, and is not in the cache
            try (Started first = start(javaHome, classCache, collector, "leaf-only")) {
                for (int i = 0; i < 3; i++) {
                    assertThat(SampledRequests.get(first.port, "/leaf", SampledRequests.traceId())).isEqualTo(200);
                }
                first.app.awaitLine(", classCache=cold,", Duration.ofSeconds(60));
            }
            try (Started restart = start(javaHome, classCache, collector, "first-hop")) {
                tracedHops(restart, collector, REQUESTS);
                List<String> lines = restart.app.lines();
                assertThat(lines).as("the client's class missed the cache and had the engine built for it")
                        .anyMatch(line -> line.startsWith("[argus] DEBUG class cache: no entry for jdk.internal.net.http.HttpClientImpl"))
                        .anyMatch(line -> line.contains("until a class missed the class cache"))
                        .noneMatch(line -> line.contains("without its probes"));
            }
        }
    }

    /** Sends {@code requests} to {@code /hop}, each with a sampled traceparent, and checks each trace is whole. */
    private static void tracedHops(Started started, TestCollector collector, int requests) throws Exception {
        List<String> traceIds = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            String traceId = SampledRequests.traceId();
            assertThat(SampledRequests.get(started.port, "/hop", traceId)).as("request %d", i).isEqualTo(200);
            traceIds.add(traceId);
        }
        CollectorClient api = collector.client();
        for (int i = 0; i < requests; i++) {
            String traceId = traceIds.get(i);
            JsonNode trace = CollectorClient.await("trace of request " + i, Duration.ofSeconds(30),
                    () -> api.trace(traceId), t -> t.path("spans").size() == 3);
            Map<String, JsonNode> byKind = new HashMap<>();
            for (JsonNode span : trace.path("spans")) {
                String kind = span.path("kind").asText();
                String key = kind.equals("CLIENT") ? "CLIENT leaf"
                        : kind + " " + (span.path("name").asText().contains("/leaf") ? "leaf" : "hop");
                byKind.put(key, span);
            }
            assertThat(byKind).as("request %d: its spans", i).containsOnlyKeys("SERVER hop", "CLIENT leaf", "SERVER leaf");
            assertThat(byKind.get("CLIENT leaf").path("parentSpanId").asText()).as("request %d: the pool thread's call"
                    + " is the request's child", i).isEqualTo(byKind.get("SERVER hop").path("spanId").asText());
            assertThat(byKind.get("SERVER leaf").path("parentSpanId").asText()).as("request %d", i)
                    .isEqualTo(byKind.get("CLIENT leaf").path("spanId").asText());
        }
    }

    private static Started start(String javaHome, Path classCache, TestCollector collector, String name) throws Exception {
        int port = TestCollector.freePort();
        AgentApp.Builder builder = AgentApp.builder(HandOffServer.class.getName())
                .javaHome(javaHome)
                .classpath(testClasses())
                .service("hand-off")
                .collector(collector.ingestPort())
                .agent("argus.startup.classCacheDir", classCache)
                .agent("argus.log.level", "debug")
                .args(String.valueOf(port));
        String logs = System.getProperty("argus.test.logs");
        if (logs != null) {
            builder.logTo(Paths.get(logs, "restart-before-engine-" + name + "-" + (javaHome.contains("25") ? "jdk25" : "jdk17") + ".log"));
        }
        AgentApp app = builder.start();
        awaitAnswer(port, app);
        return new Started(app, port);
    }

    /** As a user waits for a service: until it first answers, polled every 10 ms. */
    private static void awaitAnswer(int port, AgentApp app) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!SampledRequests.answers(port, "/leaf")) {
            if (!app.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("no answer (alive: " + app.isAlive() + "):\n" + app.output());
            }
            Thread.sleep(10);
        }
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }

    private static String testClasses() {
        return Paths.get(System.getProperty("argus.home")).getParent().resolve("test-classes").toString();
    }

    private record Started(AgentApp app, int port) implements AutoCloseable {
        @Override
        public void close() {
            app.close();
        }
    }
}
