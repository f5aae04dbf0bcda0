package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default start-up mode: the application never waits for the instrumentation engine; classes
 * it loads meanwhile (here Jetty's Server, loaded at once) are instrumented as soon as it is ready.
 */
class DeferredInstrumentationIT {

    @Test
    void classesLoadedBeforeTheEngineIsReadyAreInstrumentedSoonAfter() {
        try (TestCollector collector = TestCollector.start();
             SampleCluster cluster = SampleCluster.start(System.getProperty("java.home"), "deferred",
                     app -> app.collector(collector.ingestPort()).samplingRate(100)
                             .agent("argus.startup.waitForInstrumentation", "false")
                             .agent("argus.log.level", "debug"))) {
            assertThat(cluster.front.output()).contains("org/eclipse/jetty/server/Server loaded before the engine was ready");
            CollectorClient api = collector.client();
            JsonNode traces = CollectorClient.await("a complete trace once instrumentation is active",
                    Duration.ofSeconds(30), () -> {
                        assertThat(cluster.get("/front/call")).isEqualTo(200);
                        return api.traces("front", 5);
                    }, t -> t.size() > 0 && t.get(0).path("spanCount").asInt() == 3);
            assertThat(traces.get(0).path("rootName").asText()).isEqualTo("GET /front/call");
            cluster.front.awaitLine("retransformed [1-9]\\d* classes that loaded while the engine was starting",
                    Duration.ofSeconds(5));
        }
    }
}
