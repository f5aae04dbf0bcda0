package io.argus.scaleout.druid;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.storage.druid.DruidDatasources;
import io.argus.collector.storage.druid.DruidSettings;
import io.argus.scaleout.kafka.KafkaBroker;
import io.argus.scaleout.kafka.KafkaInstall;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Druid ingestion paused: while the supervisors are suspended the records stay in Kafka (the topics' end offsets
 * grow, Druid's row counts do not), and after they resume Druid reads on from where it stopped and the query node
 * finds what was sent meanwhile. A real KRaft broker and a real Druid cluster; profile {@code druid}.
 *
 * <p>Written against the broker launcher of the scale-out contract ({@code io.argus.scaleout.kafka.KafkaBroker});
 * the POM keeps it out of compilation until that launcher is in the module.
 */
class IngestionPausedDruidClusterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    @TempDir
    Path work;

    @Test
    void recordsSentWhileSuspendedAreQueryableAfterResume() throws Exception {
        DruidSpecs specs = new DruidSpecs(new DruidDatasources("argus-"));
        DruidDatasources ds = specs.datasources();
        long end = System.currentTimeMillis() - 60_000;
        SyntheticFleet fleet = new SyntheticFleet(200, end - 20 * 60_000, 20 * 60_000, 3);
        try (KafkaBroker kafka = KafkaBroker.start(KafkaInstall.pinned(), work.resolve("kafka"));
             DruidCluster druid = DruidCluster.start(DruidCluster.install(), work.resolve("druid"),
                     DruidCluster.DEFAULT_WORKER_CAPACITY, System.out);
             KafkaProducer<String, String> producer = producer(kafka.bootstrapServers())) {
            kafka.createTopics(ds.all());
            DruidIngestion ingestion = new DruidIngestion(druid.api(), specs);
            ingestion.startSupervisors(kafka.bootstrapServers());
            RetentionRules.defaults().apply(druid.api(), ds);

            sendTraces(producer, fleet, ds, 0, 100);
            sendOthers(producer, fleet, ds);
            awaitSpans(druid, ds, 400);

            ingestion.suspendAll();
            for (String id : ds.all()) {
                awaitState(druid, id, "SUSPENDED");
            }
            sendTraces(producer, fleet, ds, 100, 200);
            assertThat(endOffsets(kafka.bootstrapServers(), ds.spans())).isEqualTo(800);
            Thread.sleep(15_000); // time enough for a running supervisor to have read them
            assertThat(count(druid, ds.spans())).isEqualTo(400);

            ingestion.resumeAll();
            awaitSpans(druid, ds, 800);
            try (Collector query = Collector.start(CollectorConfig.builder().httpPort(0).ingestPort(0)
                    .druidQuery(new DruidSettings(URI.create(druid.routerUrl()), "argus-", Duration.ofSeconds(60)))
                    .build())) {
                String late = fleet.trace(150).get(0).traceId();
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(query.httpUrl() + "api/traces/" + late)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(JSON.readTree(r.body()).path("spans")).hasSize(4);
            }
        }
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** Spans of traces [from, to), keyed by trace id as the contract says. */
    private static void sendTraces(KafkaProducer<String, String> producer, SyntheticFleet fleet, DruidDatasources ds,
                                   int from, int to) throws Exception {
        for (int i = from; i < to; i++) {
            for (SyntheticFleet.Span s : fleet.trace(i)) {
                producer.send(new ProducerRecord<>(ds.spans(), s.traceId(), ContractJson.span(s)));
            }
        }
        producer.flush();
    }

    private static void sendOthers(KafkaProducer<String, String> producer, SyntheticFleet fleet, DruidDatasources ds) {
        fleet.cells.forEach(c -> producer.send(new ProducerRecord<>(ds.calls(), c.service(), ContractJson.cell(c))));
        fleet.gauges.forEach(g -> producer.send(new ProducerRecord<>(ds.jvm(), g.service() + "/" + g.instance(),
                ContractJson.gauge(g))));
        fleet.agentEvents.forEach(e -> producer.send(new ProducerRecord<>(ds.agents(),
                e.service() + "/" + e.instance(), ContractJson.agentEvent(e))));
        producer.flush();
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

    private static void awaitSpans(DruidCluster druid, DruidDatasources ds, long n) throws Exception {
        druid.api().awaitSql("SELECT COUNT(*) AS n FROM \"" + ds.spans() + "\"",
                rows -> rows.size() == 1 && rows.get(0).path("n").asLong() == n, TIMEOUT);
    }

    private static long count(DruidCluster druid, String datasource) throws Exception {
        return druid.api().sql("SELECT COUNT(*) AS n FROM \"" + datasource + "\"").get(0).path("n").asLong();
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
