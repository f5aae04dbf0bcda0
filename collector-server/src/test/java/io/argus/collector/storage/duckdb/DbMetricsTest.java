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

/** Database call metrics (kind db): stored, served with ?kind=db, and added to data folders that predate them. */
class DbMetricsTest {
    @TempDir
    Path dataDir;

    @Test
    void dbMetricsAreServedAndOldDataFoldersAreMigrated() throws Exception {
        // a data folder written before the 'db' kind existed, holding one server row
        EarlierDataFolder.write(dataDir, "'server', 'client'",
                "'shop', 'shop-1', 1, 1000, 'server', 'GET', '/old', 200, 3, 0, 3000000, 1000000, 1000000, [3], [2000000]");
        CollectorConfig config = TestConfigs.ephemeral().dataDir(dataDir).build();
        try (Collector collector = Collector.start(config);
             TestAgent agent = new TestAgent(collector.ingestPort())) {
            Api api = new Api(collector);
            agent.hello("shop", "shop-1");
            agent.metrics(MetricBatch.newBuilder().setTimestampMs(2_000).setIntervalMs(1_000)
                    .addBucketBoundsNanos(1_000_000L).addBucketBoundsNanos(10_000_000L)
                    .addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_DB)
                            .setMethod("SELECT").setTarget("h2:mem:shop").setStatus(0).setCount(5).setErrors(1)
                            .setSumNanos(5_000_000L).setMinNanos(500_000L).setMaxNanos(2_000_000L)
                            .addBucketCounts(4).addBucketCounts(1))
                    .build());
            JsonNode db = api.await("/api/metrics/http?service=shop&kind=db", rows -> rows.size() == 1);
            assertThat(db.get(0).get("kind").asText()).isEqualTo("db");
            assertThat(db.get(0).get("method").asText()).isEqualTo("SELECT");
            assertThat(db.get(0).get("target").asText()).isEqualTo("h2:mem:shop");
            assertThat(db.get(0).get("count").asLong()).isEqualTo(5);
            assertThat(db.get(0).get("errors").asLong()).isEqualTo(1);
            JsonNode all = api.json("/api/metrics/http?service=shop");
            assertThat(all).hasSize(2);
            JsonNode server = api.json("/api/metrics/http?service=shop&kind=server");
            assertThat(server).hasSize(1);
            assertThat(server.get(0).get("target").asText()).isEqualTo("/old");
        }
    }
}
