package io.argus.collector.storage.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.MetricBatch;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The call-metric kinds of messages (produce, consume) and RPC calls (rpc_server, rpc_client): accepted from an
 * agent, stored, served with {@code ?kind=}, and added to a data folder written when 'db' was the last kind.
 */
class MessagingAndRpcMetricsTest {
    @TempDir
    Path dataDir;

    @Test
    void everyNewKindIsStoredAndServedAndADbEraDataFolderIsMigrated() throws Exception {
        EarlierDataFolder.write(dataDir, "'server', 'client', 'db'",
                "'shop', 'shop-1', 1, 1000, 'db', 'SELECT', 'h2:mem:x', 0, 3, 0, 3000000, 1000000, 1000000, [3], [2000000]");
        CollectorConfig config = TestConfigs.ephemeral().dataDir(dataDir).build();
        try (Collector collector = Collector.start(config);
             TestAgent agent = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            agent.hello("shop", "shop-1");
            agent.metrics(MetricBatch.newBuilder().setTimestampMs(2_000).setIntervalMs(1_000)
                    .addBucketBoundsNanos(1_000_000L).addBucketBoundsNanos(10_000_000L)
                    .addCalls(cell(CallMetricKind.CALL_METRIC_KIND_MESSAGING_PRODUCE, "kafka", "orders", 0, 7))
                    .addCalls(cell(CallMetricKind.CALL_METRIC_KIND_MESSAGING_CONSUME, "kafka", "orders", 0, 6))
                    .addCalls(cell(CallMetricKind.CALL_METRIC_KIND_RPC_SERVER, "grpc", "shop.Orders/Get", 5, 2))
                    .addCalls(cell(CallMetricKind.CALL_METRIC_KIND_RPC_CLIENT, "grpc", "shop.Stock/Take", 0, 1))
                    .build());
            api.await("/api/metrics/http?service=shop", rows -> rows.size() == 5);
            assertThat(one(api, "produce").get("count").asLong()).isEqualTo(7);
            assertThat(one(api, "consume").get("target").asText()).isEqualTo("orders");
            JsonNode served = one(api, "rpc_server");
            assertThat(served.get("method").asText()).isEqualTo("grpc");
            assertThat(served.get("status").asInt()).isEqualTo(5);
            assertThat(one(api, "rpc_client").get("target").asText()).isEqualTo("shop.Stock/Take");
            assertThat(one(api, "db").get("target").asText()).isEqualTo("h2:mem:x");
        }
    }

    private static JsonNode one(Api api, String kind) throws Exception {
        JsonNode rows = api.json("/api/metrics/http?service=shop&kind=" + kind);
        assertThat(rows).as(kind).hasSize(1);
        assertThat(rows.get(0).get("kind").asText()).isEqualTo(kind);
        return rows.get(0);
    }

    private static CallMetric cell(CallMetricKind kind, String method, String target, int status, long count) {
        return CallMetric.newBuilder().setKind(kind).setMethod(method).setTarget(target).setStatus(status)
                .setCount(count).setErrors(0).setSumNanos(count * 1_000_000L).setMinNanos(1_000_000L)
                .setMaxNanos(1_000_000L).addBucketCounts(count).build();
    }
}
