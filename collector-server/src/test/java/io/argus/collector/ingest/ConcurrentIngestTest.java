package io.argus.collector.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Twenty agents ingesting at the same time: every span lands, attributed to the right instance. */
class ConcurrentIngestTest {
    static final int AGENTS = 20;
    static final int BATCHES = 50;
    static final int SPANS_PER_BATCH = 200;

    @TempDir
    Path dataDir;

    @Test
    void allConnectionsLand() throws Exception {
        // a small queue forces the backpressure path (pause reading, retry) as well
        try (Collector collector = Collector.start(TestConfigs.ephemeral()
                .dataDir(dataDir).storeQueueSpans(4_000).build())) {
            Api api = new Api(collector);
            ExecutorService pool = Executors.newFixedThreadPool(AGENTS);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            long base = 1_700_000_000_000_000_000L;
            for (int a = 0; a < AGENTS; a++) {
                int agent = a;
                done.add(pool.submit(() -> {
                    try (TestAgent t = new TestAgent(collector.ingestPort())) {
                        t.hello("svc-" + (agent % 4), "inst-" + agent);
                        go.await();
                        for (int b = 0; b < BATCHES; b++) {
                            SpanBatch.Builder batch = SpanBatch.newBuilder();
                            for (int s = 0; s < SPANS_PER_BATCH; s++) {
                                long trace = ((long) agent << 32) | (b * SPANS_PER_BATCH + s) / 4;
                                long spanId = ((long) agent << 32) | (b * SPANS_PER_BATCH + s + 1);
                                boolean root = s % 4 == 0;
                                batch.addSpans(Spans.span(agent + 1, trace, spanId, root ? 0 : spanId - (s % 4),
                                        root ? SpanKind.SPAN_KIND_SERVER : SpanKind.SPAN_KIND_INTERNAL,
                                        root ? "GET /work" : "step", base + trace * 1_000, 1_000 + s,
                                        SpanStatus.SPAN_STATUS_OK, "agent", Integer.toString(agent)));
                            }
                            t.spans(batch.build());
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            long expected = (long) AGENTS * BATCHES * SPANS_PER_BATCH;
            api.awaitMetric("argus_collector_spans_stored_total", expected);
            assertThat(api.metric("argus_collector_spans_stored_total")).isEqualTo(expected);
            assertThat(api.metric("argus_collector_frames_received_total{type=\"spans\"}"))
                    .isEqualTo(AGENTS * BATCHES);
            assertThat(api.metric("argus_collector_storage_rows_dropped_total")).isZero();
            // the tiny queue filled up: connections were paused and resumed, and nothing was lost
            assertThat(api.metric("argus_collector_store_queue_full_total")).isPositive();

            JsonNode services = api.json("/api/services");
            assertThat(services).hasSize(4);
            int instances = 0;
            for (JsonNode s : services) {
                instances += s.get("instances").size();
            }
            assertThat(instances).isEqualTo(AGENTS);
            JsonNode agents = api.json("/api/agents");
            for (JsonNode a : agents) {
                assertThat(a.get("spansReceived").asLong()).isEqualTo(BATCHES * SPANS_PER_BATCH);
            }
            // one trace of agent 7 has its four spans, attributed to inst-7
            String traceId = String.format("%016x%016x", 8, (7L << 32) | 10);
            JsonNode trace = api.json("/api/traces/" + traceId);
            assertThat(trace.get("spans")).hasSize(4);
            for (JsonNode span : trace.get("spans")) {
                assertThat(span.get("instance").asText()).isEqualTo("inst-7");
                assertThat(span.get("tags").get("agent").asText()).isEqualTo("7");
            }
            assertThat(api.json("/api/traces?service=svc-3&limit=1000")).hasSize(1000);
        }
    }
}
