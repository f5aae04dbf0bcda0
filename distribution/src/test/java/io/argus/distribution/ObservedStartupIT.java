package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.perf.harness.http.RequestSpec;
import io.argus.perf.harness.run.ProbeRequest;
import io.argus.perf.harness.run.StartObserver;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The overhead suite's observed start-up ({@link StartObserver}) against the real thing: the sample service
 * {@code back} forked with the assembled agent, probed from its first answer with a sampled traceparent per
 * request, and a real collector asked for each probe's trace. No timing is asserted, only what was observed.
 */
class ObservedStartupIT {

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    /** The default start-up holds the first request until the probes are in: the very first answer is traced. */
    @ParameterizedTest
    @MethodSource("javaHomes")
    void byDefaultTheFirstAnswerIsAlreadyObserved(String javaHome) throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            int port = TestCollector.freePort();
            try (AgentApp back = back(javaHome, port, "observed-default-" + jdk(javaHome),
                    b -> b.collector(collector.ingestPort()))) {
                ProbeRequest first = firstAnswer(port, back);
                StartObserver.Observation o = new StartObserver(store(collector.client()), Duration.ofSeconds(60))
                        .observe(readiness(port), first, back::isAlive);

                assertThat(o.note()).isNull();
                assertThat(o.observed()).as("observed within the bound").isNotNull();
                assertThat(o.observed().traceId()).as("the first answered request").isEqualTo(first.traceId());
                assertThat(o.unobserved()).isZero();
                assertThat(o.probes()).as("it probed until the collector had one").hasSizeGreaterThan(1);
                JsonNode spans = collector.client().trace(first.traceId()).path("spans");
                assertThat(spans).hasSize(1);
                assertThat(spans.get(0).path("service").asText()).isEqualTo("back");
                assertThat(spans.get(0).path("kind").asText()).isEqualTo("SERVER");
                assertThat(spans.get(0).path("name").asText()).contains("/back/ping");
            }
        }
    }

    /**
     * The opt-in deferred start-up: the earliest stored probe is found, and every answered probe before it is one
     * the collector never got (the requests the application served unobserved).
     */
    @Test
    void theDeferredStartIsObservedFromTheEarliestStoredProbe() throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            int port = TestCollector.freePort();
            try (AgentApp back = back(System.getProperty("java.home"), port, "observed-deferred",
                    b -> b.collector(collector.ingestPort()).agent("argus.startup.mode", "deferred"))) {
                ProbeRequest first = firstAnswer(port, back);
                CollectorClient api = collector.client();
                StartObserver.Observation o = new StartObserver(store(api), Duration.ofSeconds(60))
                        .observe(readiness(port), first, back::isAlive);

                assertThat(o.observed()).as("observed within the bound").isNotNull();
                assertThat(api.trace(o.observed().traceId())).isNotNull();
                int at = o.probes().indexOf(o.observed());
                List<String> before = new ArrayList<>();
                for (ProbeRequest p : o.probes().subList(0, at)) {
                    if (p.answered()) {
                        before.add(p.traceId());
                    }
                }
                assertThat(before).hasSize(o.unobserved());
                for (String traceId : before) {
                    assertThat(api.trace(traceId)).as("a probe answered before the earliest stored one").isNull();
                }
                assertThat(back.awaitLine("\\[argus\\] Argus \\S+ started in \\d+ ms: .*startup=deferred",
                        Duration.ofSeconds(30))).isNotNull();
            }
        }
    }

    /** Nothing exports: probing stops at the bound and the process counts as never observed. */
    @Test
    void aServiceWithoutTheAgentIsNeverObservedWithinTheBound() throws Exception {
        try (TestCollector collector = TestCollector.start()) {
            int port = TestCollector.freePort();
            try (AgentApp back = back(System.getProperty("java.home"), port, "observed-none",
                    AgentApp.Builder::withoutAgent)) {
                ProbeRequest first = firstAnswer(port, back);
                StartObserver.Observation o = new StartObserver(store(collector.client()), Duration.ofSeconds(2))
                        .observe(readiness(port), first, back::isAlive);

                assertThat(o.observed()).isNull();
                assertThat(o.note()).isNull();
                assertThat(o.stoppedNanos() - first.sentNanos()).isGreaterThanOrEqualTo(Duration.ofSeconds(2).toNanos());
                assertThat(o.probes()).hasSizeGreaterThan(10).allMatch(ProbeRequest::answered);
                assertThat(o.unobserved()).isEqualTo(o.probes().size());
            }
        }
    }

    private static StartObserver.TraceStore store(CollectorClient api) {
        return traceId -> api.trace(traceId) != null;
    }

    private static RequestSpec readiness(int port) {
        return RequestSpec.get("http://127.0.0.1:" + port + "/back/ping");
    }

    /** Polls from the fork, as the harness does, each poll with a traceparent of its own; returns the first answer. */
    private static ProbeRequest firstAnswer(int port, AgentApp app) throws InterruptedException {
        long deadline = System.nanoTime() + SampleCluster.STARTUP.toNanos();
        while (System.nanoTime() < deadline && app.isAlive()) {
            // an accepted poll is waited for: the start gate may hold the first request a while
            ProbeRequest p = ProbeRequest.send(readiness(port), 1000, 30_000);
            if (p.status() == 200) {
                return p;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("back did not answer within " + SampleCluster.STARTUP + "; output:\n" + app.output());
    }

    private static AgentApp back(String javaHome, int port, String logTag, Consumer<AgentApp.Builder> settings) {
        AgentApp.Builder b = AgentApp.builder("io.argus.perf.sample.SampleService")
                .javaHome(javaHome)
                .classpath(SampleCluster.perfClasspath())
                .service("back")
                .args("--name", "back", "--port", Integer.toString(port))
                .logToTestLogs(logTag + "-back");
        settings.accept(b);
        return b.start();
    }

    private static String jdk(String javaHome) {
        return javaHome.contains("25") ? "jdk25" : "jdk17";
    }
}
