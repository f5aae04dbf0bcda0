package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The opt-in deferred start-up ({@code argus.startup.mode=deferred}): {@code premain} returns at once and
 * the agent starts on a thread of its own once it has waited for a spare core; the classes the application
 * loads meanwhile (here Jetty's Server, loaded at once) are instrumented once the engine is in, and the
 * traces follow from then on.
 */
class DeferredInstrumentationIT {

    private static final String WAITED = "[argus] DEBUG start-up: waited ";

    @Test
    void premainReturnsBeforeTheAgentHasStartedAndEarlyClassesAreInstrumentedAfter() {
        try (TestCollector collector = TestCollector.start();
             SampleCluster cluster = startDeferred(collector, "deferred")) {
            int premainDone = cluster.front.indexOfLineStartingWith("[argus] DEBUG start-up: premain took ");
            int agentStarted = cluster.front.indexOfLineStartingWith("[argus] Argus ");
            assertThat(premainDone).as("premain's own line").isNotNegative();
            assertThat(premainDone).as("premain returned before the agent's start-up thread was done")
                    .isLessThan(agentStarted);
            int waited = cluster.front.indexOfLineStartingWith(WAITED);
            int firstFields = cluster.front.indexOfLineStartingWith("[argus] DEBUG fields added to ");
            assertThat(waited).as("the start-up thread's wait").isNotNegative();
            if (firstFields >= 0) {
                assertThat(firstFields).as("owner fields only once the agent has waited").isGreaterThan(waited);
            }
            cluster.front.awaitLine("\\[argus] DEBUG instrumented org\\.eclipse\\.jetty\\.server\\.Server$",
                    Duration.ofSeconds(30));
            // a Jetty request class that loaded before the agent was up keeps its state in the map
            assertCompleteCallTrace(cluster, collector, "a complete trace once instrumentation is active");
        }
    }

    /** The sample services at 100% with the deferred start-up, once {@code front}'s agent is up. */
    private static SampleCluster startDeferred(TestCollector collector, String name) {
        SampleCluster cluster = SampleCluster.start(System.getProperty("java.home"), name, app -> {
            app.collector(collector.ingestPort()).samplingRate(100)
                    .agent("argus.startup.mode", "deferred")
                    .agent("argus.log.level", "debug");
        });
        try {
            cluster.front.awaitLine("\\[argus] Argus \\S+ started in \\d+ ms", Duration.ofSeconds(60));
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private static void assertCompleteCallTrace(SampleCluster cluster, TestCollector collector, String description) {
        CollectorClient api = collector.client();
        JsonNode traces = CollectorClient.await(description, Duration.ofSeconds(30), () -> {
            assertThat(cluster.get("/front/call")).isEqualTo(200);
            return api.traces("front", 5);
        }, t -> t.size() > 0 && t.get(0).path("spanCount").asInt() == 3);
        assertThat(traces.get(0).path("rootName").asText()).isEqualTo("GET /front/call");
    }
}
