package io.argus.collector.storage.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.Gauge;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Data ingested before a restart is served after it, from the same data directory. */
class PersistenceTest {
    @TempDir
    Path dataDir;

    @Test
    void survivesRestart() throws Exception {
        CollectorConfig config = TestConfigs.ephemeral().dataDir(dataDir).build();
        long start = 1_700_000_000_000_000_000L;
        try (Collector first = Collector.start(config);
             TestAgent agent = new TestAgent(first.ingestPort())) {
            Api api = new Api(first);
            agent.hello("orders", "orders-1");
            agent.spans(SpanBatch.newBuilder()
                    .addSpans(Spans.span(7, 8, 1, 0, SpanKind.SPAN_KIND_SERVER, "POST /orders", start, 4_000_000L,
                            SpanStatus.SPAN_STATUS_OK, "http.method", "POST"))
                    .addSpans(Spans.span(7, 8, 2, 1, SpanKind.SPAN_KIND_CLIENT, "INSERT orders", start + 1_000_000L,
                            2_000_000L, SpanStatus.SPAN_STATUS_OK))
                    .build());
            agent.metrics(MetricBatch.newBuilder().setTimestampMs(1_000).setIntervalMs(10_000)
                    .addBucketBoundsNanos(1_000_000L).addBucketBoundsNanos(10_000_000L)
                    .addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER)
                            .setMethod("POST").setTarget("/orders").setStatus(201).setCount(4).setSumNanos(16_000_000L)
                            .setMinNanos(2_000_000L).setMaxNanos(8_000_000L).addBucketCounts(0).addBucketCounts(4))
                    .addJvm(Gauge.newBuilder().setName("heap.used").setValue(1234.5))
                    .build());
            api.awaitMetric("argus_collector_spans_stored_total", 2);
            api.awaitMetric("argus_collector_jvm_gauges_stored_total", 1);
            api.await("/api/services", s -> s.size() == 1);
        }
        assertThat(dataDir.resolve("argus.duckdb")).exists();

        try (Collector second = Collector.start(config)) {
            Api api = new Api(second);
            JsonNode traces = api.json("/api/traces");
            assertThat(traces).hasSize(1);
            assertThat(traces.get(0).get("traceId").asText()).isEqualTo("00000000000000070000000000000008");
            assertThat(traces.get(0).get("rootName").asText()).isEqualTo("POST /orders");
            assertThat(traces.get(0).get("spanCount").asLong()).isEqualTo(2);
            JsonNode spans = api.json("/api/traces/00000000000000070000000000000008").get("spans");
            assertThat(spans).hasSize(2);
            assertThat(spans.get(1).get("parentSpanId").asText()).isEqualTo("0000000000000001");
            assertThat(spans.get(0).get("tags").get("http.method").asText()).isEqualTo("POST");

            JsonNode http = api.json("/api/metrics/http?service=orders");
            assertThat(http).hasSize(1);
            assertThat(http.get(0).get("count").asLong()).isEqualTo(4);
            assertThat(http.get(0).get("avgMs").asDouble()).isEqualTo(4.0);
            assertThat(http.get(0).get("status").asInt()).isEqualTo(201);

            JsonNode jvm = api.json("/api/metrics/jvm?service=orders");
            assertThat(jvm.get("instances").get(0).get("latest").get("heap.used").asDouble()).isEqualTo(1234.5);

            JsonNode services = api.json("/api/services");
            assertThat(services.toString()).contains("\"orders\"").contains("\"orders-1\"");
            JsonNode agents = api.json("/api/agents");
            assertThat(agents).hasSize(1);
            assertThat(agents.get(0).get("connected").asBoolean()).isFalse();
            assertThat(agents.get(0).get("agentVersion").asText()).isEqualTo("0.1.0-test");
            assertThat(agents.get(0).get("spansReceived").asLong()).isEqualTo(2);
            assertThat(agents.get(0).get("observingSinceMs").asLong()).as("kept across a restart")
                    .isEqualTo(1_700_000_000_100L);

            // and it keeps ingesting on top of the old data
            try (TestAgent agent = new TestAgent(second.ingestPort())) {
                agent.hello("orders", "orders-1");
                agent.spans(SpanBatch.newBuilder().addSpans(Spans.span(9, 9, 3, 0, SpanKind.SPAN_KIND_SERVER,
                        "GET /orders", start + 5_000_000_000L, 1_000_000L, SpanStatus.SPAN_STATUS_OK)).build());
                api.await("/api/traces", t -> t.size() == 2);
            }
            assertThat(second.flush(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(Files.list(dataDir)).isNotEmpty();
    }

    @Test
    void secondCollectorOnSameDirectoryFailsClearly() {
        CollectorConfig config = TestConfigs.ephemeral().dataDir(dataDir).build();
        try (Collector first = Collector.start(config)) {
            Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> Collector.start(config).close());
            assertThat(thrown).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("in use by another collector");
            assertThat(new Api(first).json("/api/services")).isEmpty();
        }
        // released on close
        Collector.start(config).close();
    }
}
