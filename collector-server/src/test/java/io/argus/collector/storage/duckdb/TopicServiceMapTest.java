package io.argus.collector.storage.duckdb;

import static io.argus.collector.testing.Spans.span;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.SpanBatch;
import io.argus.protocol.SpanKind;
import io.argus.protocol.SpanStatus;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic on the service map: the producing service's PRODUCER spans are edges to the topic node, the consuming
 * service's CONSUMER spans edges from it, and each edge finds its traces; gRPC calls are edges like HTTP calls.
 */
class TopicServiceMapTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dataDir;

    @Test
    void aTopicIsANodeBetweenItsProducersAndItsConsumers() throws Exception {
        long t0 = System.currentTimeMillis() - 60_000;
        try (Collector collector = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).build());
             TestAgent shop = new TestAgent(collector.ingestPort());
             TestAgent billing = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            shop.hello("shop", "shop-1");
            billing.hello("billing", "billing-1");
            long start = t0 * MS;
            shop.spans(SpanBatch.newBuilder()
                    .addSpans(span(0, 0xe1, 1, 0, SpanKind.SPAN_KIND_SERVER, "POST /orders", start, 20 * MS,
                            SpanStatus.SPAN_STATUS_OK, "http.method", "POST"))
                    .addSpans(span(0, 0xe1, 2, 1, SpanKind.SPAN_KIND_PRODUCER, "publish orders", start + MS, 5 * MS,
                            SpanStatus.SPAN_STATUS_OK, "messaging.system", "kafka",
                            "messaging.destination.name", "orders", "messaging.operation", "publish"))
                    .addSpans(span(0, 0xe1, 3, 1, SpanKind.SPAN_KIND_CLIENT, "stock.Stock/Reserve", start + 2 * MS,
                            3 * MS, SpanStatus.SPAN_STATUS_OK, "rpc.system", "grpc", "peer", "127.0.0.1:9090"))
                    .build());
            billing.spans(SpanBatch.newBuilder()
                    .addSpans(span(0, 0xe1, 4, 2, SpanKind.SPAN_KIND_CONSUMER, "process orders", start + 10 * MS,
                            7 * MS, SpanStatus.SPAN_STATUS_ERROR, "messaging.system", "kafka",
                            "messaging.destination.name", "orders", "messaging.operation", "process"))
                    .build());
            api.awaitMetric("argus_collector_spans_stored_total", 4);
            assertThat(collector.flush(Duration.ofSeconds(10))).isTrue();

            JsonNode map = api.json("/api/servicemap");
            List<String> nodes = new ArrayList<>();
            map.get("nodes").forEach(n -> nodes.add(n.get("id").asText() + "|" + n.get("name").asText() + "|"
                    + n.get("type").asText()));
            assertThat(nodes).containsExactly("billing|billing|service", "shop|shop|service",
                    "topic:kafka/orders|kafka/orders|topic", "ext:127.0.0.1:9090|127.0.0.1:9090|external");
            List<String> edges = new ArrayList<>();
            map.get("edges").forEach(e -> edges.add(e.get("source").asText() + " -> " + e.get("target").asText()
                    + " " + e.get("calls").asLong() + "/" + e.get("errors").asLong()));
            assertThat(edges).containsExactlyInAnyOrder("shop -> topic:kafka/orders 1/0",
                    "topic:kafka/orders -> billing 1/1", "shop -> ext:127.0.0.1:9090 1/0");
            JsonNode traces = api.json("/api/servicemap/traces?source=" + enc("topic:kafka/orders")
                    + "&target=billing");
            assertThat(traces).hasSize(1);
            assertThat(traces.get(0).get("traceId").asText()).isEqualTo("000000000000000000000000000000e1");
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
