package io.argus.fleet.druid;

import io.argus.cluster.druid.DruidCluster;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.kafka.KafkaSettings;
import io.argus.collector.storage.druid.DruidDatasources;
import io.argus.collector.storage.druid.DruidSettings;
import io.argus.collector.testing.TestAgent;
import io.argus.protocol.SpanBatch;
import io.argus.cluster.kafka.KafkaBroker;
import io.argus.cluster.kafka.KafkaInstall;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Druid ingestion paused: while the supervisors are suspended the records stay in Kafka (the topics' end offsets
 * grow, Druid's row counts do not), and after they resume Druid reads on from where it stopped and the query node
 * finds what was sent meanwhile. Agents send the spans to a real {@code --storage kafka} ingest collector, in front
 * of a real KRaft broker; a real Druid cluster ingests the topics. Profile {@code druid}.
 */
class IngestionPausedDruidClusterIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    private static final int TRACES = 200;

    @TempDir
    Path work;

    @Test
    void recordsSentWhileSuspendedAreQueryableAfterResume() throws Exception {
        DruidSpecs specs = new DruidSpecs(new DruidDatasources("argus-"));
        DruidDatasources ds = specs.datasources();
        long end = System.currentTimeMillis() - 60_000;
        SyntheticFleet fleet = new SyntheticFleet(TRACES, end - 20 * 60_000, 20 * 60_000, 3);
        try (KafkaBroker kafka = KafkaBroker.start(KafkaInstall.pinned(), work.resolve("kafka"));
             DruidCluster druid = DruidCluster.start(DruidCluster.install(), work.resolve("druid"),
                     DruidCluster.DEFAULT_WORKER_CAPACITY, System.out)) {
            kafka.createTopics(3, ds.all().toArray(String[]::new));
            DruidIngestion ingestion = new DruidIngestion(druid.api(), specs);
            ingestion.startSupervisors(kafka.bootstrapServers());
            RetentionRules.defaults().apply(druid.api(), ds);

            // the topic prefix of the ingest node is the datasource prefix: each supervisor reads its topic
            try (Collector ingest = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0)
                    .otlpHttpPort(CollectorConfig.ANY_FREE_PORT)
                    // the agents' connections wait, idle, while the supervisors suspend: minutes on a busy machine
                    .idleTimeout(Duration.ofMinutes(30))
                    .kafka(KafkaSettings.of(kafka.bootstrapServers()).withTopicPrefix("argus-")
                            .withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(5)))
                    .build());
                 Agents agents = new Agents(ingest.ingestPort())) {
                agents.sendTraces(fleet, 0, TRACES / 2);
                awaitEndOffsets(kafka.bootstrapServers(), ds.spans(), 4L * TRACES / 2);
                awaitSpans(druid, ds, 4L * TRACES / 2);

                ingestion.suspendAll();
                for (String id : ds.all()) {
                    awaitState(druid, id, "SUSPENDED");
                }
                // the stopped tasks publish their segments, or (a task that fails meanwhile) leave their offsets
                // uncommitted for the next task to read again: either way no task runs any more
                awaitNoTasks(druid);
                long beforeLate = count(druid, ds.spans());
                assertThat(beforeLate).isIn(0L, 4L * TRACES / 2);
                agents.sendTraces(fleet, TRACES / 2, TRACES);
                // Kafka holds every span...
                awaitEndOffsets(kafka.bootstrapServers(), ds.spans(), 4L * TRACES);
                Thread.sleep(15_000); // time enough for a running supervisor to have read them
                // ...and Druid none of those sent while suspended
                assertThat(count(druid, ds.spans())).isEqualTo(beforeLate);

                ingestion.resumeAll();
                awaitSpans(druid, ds, 4L * TRACES);
                druid.api().awaitSql("SELECT COUNT(DISTINCT instance) AS n FROM \"" + ds.agents() + "\"",
                        rows -> rows.size() == 1 && rows.get(0).path("n").asLong() == 3, TIMEOUT);
            }
            try (Collector query = Collector.start(CollectorConfig.builder().httpPort(0).ingestPort(0)
                    .dataDir(work.resolve("unused"))
                    .druidQuery(new DruidSettings(URI.create(druid.routerUrl()), "argus-", Duration.ofSeconds(60)))
                    .build())) {
                for (int i : new int[] {TRACES / 2, TRACES * 3 / 4, TRACES - 1}) {
                    List<SyntheticFleet.Span> sent = fleet.trace(i);
                    JsonNode trace = get(query, "api/traces/" + sent.get(0).traceId());
                    assertThat(trace.path("spans")).hasSize(4);
                    List<String> ids = new ArrayList<>();
                    trace.path("spans").forEach(s -> ids.add(s.path("spanId").asText()));
                    assertThat(ids).containsExactlyInAnyOrderElementsOf(
                            sent.stream().map(SyntheticFleet.Span::spanId).toList());
                }
                // the agents' sessions reached Druid through the ingest node as well
                JsonNode services = get(query, "api/services");
                assertThat(services).hasSize(2);
                assertThat(services.get(0).path("instances").toString())
                        .isEqualTo("[\"orders-1@host\",\"orders-2@host\"]");
            }
        }
    }

    /** One agent connection per instance of the fleet, each sending the spans of its instance. */
    private static final class Agents implements AutoCloseable {
        private final Map<String, TestAgent> byInstance = new LinkedHashMap<>();

        Agents(int port) throws Exception {
            for (String instance : SyntheticFleet.ORDERS) {
                byInstance.put(instance, new TestAgent(port).hello("orders", instance));
            }
            byInstance.put(SyntheticFleet.STOCK, new TestAgent(port).hello("stock", SyntheticFleet.STOCK));
        }

        /** The spans of traces [from, to), a batch per trace and instance. */
        void sendTraces(SyntheticFleet fleet, int from, int to) throws Exception {
            for (int i = from; i < to; i++) {
                Map<String, SpanBatch.Builder> batches = new LinkedHashMap<>();
                for (SyntheticFleet.Span s : fleet.trace(i)) {
                    batches.computeIfAbsent(s.instance(), k -> SpanBatch.newBuilder())
                            .addSpans(FleetRecords.protoSpan(s));
                }
                for (Map.Entry<String, SpanBatch.Builder> e : batches.entrySet()) {
                    byInstance.get(e.getKey()).spans(e.getValue().build());
                }
            }
        }

        @Override
        public void close() throws Exception {
            for (TestAgent agent : byInstance.values()) {
                agent.close();
            }
        }
    }

    private static JsonNode get(Collector c, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(c.httpUrl() + path))
                .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private static long endOffsets(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = new ArrayList<>();
            c.partitionsFor(topic).forEach(info -> parts.add(new TopicPartition(topic, info.partition())));
            Map<TopicPartition, Long> ends = c.endOffsets(parts);
            return ends.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    /** The ingest node publishes asynchronously: waits until the topic holds {@code n} records. */
    private static void awaitEndOffsets(String bootstrap, String topic, long n) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        long seen = -1;
        while (System.nanoTime() < deadline) {
            seen = endOffsets(bootstrap, topic);
            if (seen >= n) {
                assertThat(seen).as("records in %s", topic).isEqualTo(n);
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError(topic + " holds " + seen + " records, not " + n);
    }

    private static void awaitSpans(DruidCluster druid, DruidDatasources ds, long n) throws Exception {
        druid.api().awaitSql("SELECT COUNT(*) AS n FROM \"" + ds.spans() + "\"",
                rows -> rows.size() == 1 && rows.get(0).path("n").asLong() == n, TIMEOUT);
    }

    /** The rows Druid serves; 0 while it serves no segment of the datasource (Druid: table not found). */
    private static long count(DruidCluster druid, String datasource) throws Exception {
        try {
            return druid.api().sql("SELECT COUNT(*) AS n FROM \"" + datasource + "\"").get(0).path("n").asLong();
        } catch (java.io.IOException e) {
            if (e.getMessage().contains("not found")) {
                return 0;
            }
            throw e;
        }
    }

    /** Waits until the suspended supervisors' tasks have all ended (published, or failed and left to Kafka). */
    private static void awaitNoTasks(DruidCluster druid) throws Exception {
        druid.api().awaitSql("SELECT COUNT(*) AS n FROM sys.tasks WHERE status = 'RUNNING'",
                IngestionPausedDruidClusterIT::countsNone, TIMEOUT);
        // a published segment is served once the historical has loaded it
        druid.api().awaitSql("SELECT COUNT(*) AS n FROM sys.segments WHERE is_published = 1 AND is_available = 0",
                IngestionPausedDruidClusterIT::countsNone, TIMEOUT);
    }

    /** Druid answers a count over a system table that matches nothing with no row at all, not a row of 0. */
    private static boolean countsNone(List<JsonNode> rows) {
        return rows.isEmpty() || rows.size() == 1 && rows.get(0).path("n").asLong() == 0;
    }

    private static void awaitState(DruidCluster druid, String id, String state) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        JsonNode status = null;
        while (System.nanoTime() < deadline) {
            status = druid.api().supervisorStatus(id);
            if (state.equals(status.path("state").asText()) || state.equals(status.path("detailedState").asText())) {
                return;
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("supervisor " + id + " not " + state + ": " + status);
    }
}
