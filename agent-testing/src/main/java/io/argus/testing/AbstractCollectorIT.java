package io.argus.testing;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plugin IT: forked application JVMs with the agent report to a real collector in this JVM (one per
 * test class), and the test reads its API. What every plugin IT needs to read it.
 */
public abstract class AbstractCollectorIT {

    /** How long to wait for anything the agent sends. */
    public static final Duration WAIT = Duration.ofSeconds(30);
    /** The JDK the tests run on, and the applications by default. */
    public static final String JDK = System.getProperty("java.home");

    protected static TestCollector collector;
    protected static CollectorClient api;

    @BeforeAll
    static void startCollector() {
        collector = TestCollector.start();
        api = collector.client();
    }

    @AfterAll
    static void stopCollector() {
        if (collector != null) {
            collector.close();
        }
    }

    /** A short name of a JDK for service names: {@code jdk17} for the test's own, else its folder name. */
    protected static String jdkLabel(String javaHome) {
        return javaHome.equals(JDK) ? "jdk" + Runtime.version().feature()
                : Paths.get(javaHome).getFileName().toString().replaceAll("[^A-Za-z0-9]+", "-");
    }

    /** Random lower-case hex that does not start with 0 (so never an all-zero, invalid id). */
    protected static String hex(int digits) {
        StringBuilder out = new StringBuilder(digits);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        out.append("0123456789abcdef".charAt(1 + random.nextInt(15)));
        while (out.length() < digits) {
            out.append("0123456789abcdef".charAt(random.nextInt(16)));
        }
        return out.toString();
    }

    protected static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        if (array != null) {
            array.forEach(out::add);
        }
        return out;
    }

    protected static boolean isRoot(JsonNode span) {
        JsonNode parent = span.path("parentSpanId");
        return parent.isMissingNode() || parent.isNull() || parent.asText().isEmpty()
                || parent.asText().equals("0000000000000000");
    }

    /** The spans of a trace of one kind (SERVER, CLIENT, ...). */
    protected static List<JsonNode> spans(JsonNode trace, String kind) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode span : trace.path("spans")) {
            if (kind.equals(span.path("kind").asText())) {
                found.add(span);
            }
        }
        return found;
    }

    /** The only span of this kind in a trace; fails if there is none or more than one. */
    protected static JsonNode span(JsonNode trace, String kind) {
        List<JsonNode> found = spans(trace, kind);
        assertThat(found).as("only one %s span in %s", kind, trace).hasSizeLessThanOrEqualTo(1);
        assertThat(found).as("a %s span in %s", kind, trace).isNotEmpty();
        return found.get(0);
    }

    /** A trace once it holds at least {@code spans} spans. */
    protected static JsonNode awaitTrace(String traceId, int spans) {
        return CollectorClient.await("trace " + traceId + " with " + spans + " spans", WAIT,
                () -> api.trace(traceId), t -> t.path("spans").size() >= spans);
    }

    /** The time of the latest metrics batch the agent of {@code service} flushed (its gauges go with every batch). */
    protected static long latestFlush(String service) {
        long latest = 0;
        for (JsonNode instance : api.jvmMetrics(service).path("instances")) {
            for (JsonNode points : instance.path("series")) {
                for (JsonNode point : points) {
                    latest = Math.max(latest, point.get(0).asLong());
                }
            }
        }
        return latest;
    }

    /**
     * Waits for a metrics batch the agent flushed after {@code epochMillis}: the agent's gauges go out
     * with every batch, after the spans queued before it, so by then everything recorded earlier is in.
     */
    protected static void awaitFlushAfter(String service, long epochMillis) {
        CollectorClient.await("a metrics flush of " + service + " after " + epochMillis, WAIT,
                () -> latestFlush(service), t -> t > epochMillis);
    }

    /**
     * The latest value of one of the agent's own gauges (agent.advice.errors, agent.classes.transformed),
     * once the service's only instance has reported it.
     */
    protected static double agentGauge(String service, String name) {
        JsonNode instances = CollectorClient.await(name + " of " + service, WAIT, () -> api.jvmMetrics(service).path("instances"),
                i -> i.size() == 1 && i.get(0).path("latest").path(name).isNumber());
        return instances.get(0).path("latest").path(name).asDouble();
    }
}
