package io.argus.springboot;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.cluster.kafka.KafkaBroker;
import io.argus.cluster.kafka.KafkaInstall;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Kafka {@code @KafkaListener}s in a Boot application (Boot 3.5 with Spring Kafka 3.3 and kafka-clients 3.9 on
 * JDK 17; Boot 4.0 with Spring Kafka 4.0 and kafka-clients 4.1 on Temurin 25) against a real KRaft broker
 * (local-cluster's {@link KafkaBroker}), with the agent at its default settings. A request with a sampled
 * {@code traceparent} produces one record to a record listener's topic and three to a batch listener's: the record's
 * CONSUMER span is the child of its PRODUCER span; each batch is one CONSUMER span, the child of the PRODUCER span of
 * its first record that carries a context, with the batch's size; each listener's JDBC insert (H2) and WebClient call
 * are under its CONSUMER span. The consume metrics count every record. Records with a malformed {@code traceparent}
 * are processed as any other, the agent printing nothing for them; with every root sampled, each starts a trace of
 * its own.
 */
class SpringKafkaIT extends AbstractCollectorIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String MAIN = "io.argus.springboot.kafka.KafkaListenersApp";
    private static final Pattern PING = Pattern.compile("^PING traceparent=00-([0-9a-f]{32})-[0-9a-f]{16}-01$");
    private static final Pattern BATCH = Pattern.compile("^AUDIT batch=(\\d+) pong$");

    @TempDir
    static Path work;
    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start(KafkaInstall.pinned(), work.resolve("kafka"));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void boot3OnJdk17() throws Exception {
        verify("boot3", JDK);
    }

    @Test
    void boot4OnJdk25() throws Exception {
        verify("boot4", ReactiveApps.otherJdk());
    }

    /**
     * Every new root sampled, so that a record whose {@code traceparent} cannot be parsed shows the trace it starts:
     * its CONSUMER span is a root, with the listener's calls under it. Sent from this JVM, which has no agent.
     */
    @Test
    void aRecordWithAMalformedTraceparentStartsATraceOfItsOwn() throws Exception {
        String service = "boot3-kafka-malformed-" + jdkLabel(ReactiveApps.otherJdk());
        String prefix = "malformed-";
        broker.createTopics(1, prefix + "orders", prefix + "audit");
        try (AgentApp app = ReactiveApps.app("boot3", MAIN, service, ReactiveApps.otherJdk(), collector.ingestPort(),
                "--spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
                "--spring.kafka.consumer.auto-offset-reset=earliest",
                "--app.topic-prefix=" + prefix).samplingRate(100).start()) {
            ReactiveApps.port(app);
            int agentLines = agentLines(app);
            Properties p = new Properties();
            p.put("bootstrap.servers", broker.bootstrapServers());
            p.put("key.serializer", StringSerializer.class.getName());
            p.put("value.serializer", StringSerializer.class.getName());
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
                for (String bad : List.of("00-this-is-not-a-trace-id-01", "00-" + "0".repeat(32) + "-" + "0".repeat(16) + "-01",
                        "garbage")) {
                    ProducerRecord<String, String> record = new ProducerRecord<>(prefix + "orders", "bad", bad);
                    record.headers().add("traceparent", bad.getBytes(StandardCharsets.UTF_8));
                    producer.send(record).get();
                }
            }
            CollectorClient.await("the three records processed", WAIT, () -> app.lines().stream()
                    .filter(l -> l.equals("ORDER key=bad pong")).count(), n -> n >= 3);
            List<String> traceIds = app.lines().stream().map(PING::matcher).filter(Matcher::matches)
                    .map(m -> m.group(1)).toList();
            assertThat(traceIds).hasSize(3).doesNotHaveDuplicates().doesNotContain("0".repeat(32));
            for (String traceId : traceIds) {
                JsonNode trace = awaitTrace(traceId, 4);
                JsonNode consumer = span(trace, "CONSUMER");
                assertThat(isRoot(consumer)).as("root of %s", trace).isTrue();
                assertThat(consumer.path("name").asText()).isEqualTo("process " + prefix + "orders");
                assertThat(spans(trace, "CLIENT")).hasSize(2).allSatisfy(c ->
                        assertThat(c.path("parentSpanId").asText()).isEqualTo(consumer.path("spanId").asText()));
            }
            assertThat(awaitConsumed(service, prefix + "orders", 3)).isEqualTo(3);
            assertThat(agentLines(app)).isEqualTo(agentLines);
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    private void verify(String boot, String javaHome) throws Exception {
        String service = boot + "-kafka-listeners-" + jdkLabel(javaHome);
        String orders = "orders";
        String audit = "audit";
        // a broker per class, topics per application: each application has its own prefix
        String prefix = boot + "-";
        broker.createTopics(1, prefix + orders, prefix + audit);
        try (AgentApp app = ReactiveApps.app(boot, MAIN, service, javaHome, collector.ingestPort(),
                "--spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
                "--spring.kafka.consumer.auto-offset-reset=earliest",
                "--app.topic-prefix=" + prefix).start()) {
            int port = ReactiveApps.port(app);
            String traceId = hex(32);
            String parent = hex(16);
            HttpResponse<String> sent = HTTP.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/api/orders/42"))
                    .header("traceparent", "00-" + traceId + "-" + parent + "-01").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
            app.awaitLine("^ORDER key=42 pong$", WAIT);
            // the three audit records, in however many batches the poll loop made of them
            CollectorClient.await("the audit batches of " + service, WAIT, () -> batchSizes(app).stream()
                    .mapToInt(Integer::intValue).sum(), records -> records >= 3);
            int batchCount = batchSizes(app).size();

            // SERVER, 4 PRODUCER, the record's CONSUMER with its JDBC and HTTP calls and that call's SERVER span, and
            // each batch's CONSUMER span with the same three
            JsonNode trace = awaitTrace(traceId, 9 + 4 * batchCount);
            List<JsonNode> spans = list(trace.path("spans"));
            assertThat(spans).hasSize(9 + 4 * batchCount);
            Set<String> ids = spans.stream().map(s -> s.path("spanId").asText()).collect(Collectors.toSet());
            assertThat(spans).filteredOn(s -> !ids.contains(s.path("parentSpanId").asText())).singleElement()
                    .satisfies(root -> {
                        assertThat(root.path("name").asText()).isEqualTo("GET /api/orders/{id}");
                        assertThat(root.path("parentSpanId").asText()).isEqualToIgnoringCase(parent);
                    });
            JsonNode server = spans.stream().filter(s -> s.path("name").asText().equals("GET /api/orders/{id}"))
                    .findFirst().orElseThrow();
            List<JsonNode> producers = spans(trace, "PRODUCER");
            assertThat(producers).hasSize(4).allSatisfy(p ->
                    assertThat(p.path("parentSpanId").asText()).isEqualTo(server.path("spanId").asText()));
            JsonNode orderProducer = producers.stream()
                    .filter(p -> p.path("name").asText().equals("publish " + prefix + orders)).findFirst().orElseThrow();
            Set<String> auditProducers = producers.stream().filter(p -> p.path("name").asText().equals("publish " + prefix + audit))
                    .map(p -> p.path("spanId").asText()).collect(Collectors.toSet());
            assertThat(auditProducers).hasSize(3);

            List<JsonNode> consumers = spans(trace, "CONSUMER");
            assertThat(consumers).hasSize(1 + batchCount);
            JsonNode record = consumers.stream().filter(c -> c.path("name").asText().equals("process " + prefix + orders))
                    .findFirst().orElseThrow();
            assertThat(record.path("parentSpanId").asText()).isEqualTo(orderProducer.path("spanId").asText());
            List<JsonNode> batches = consumers.stream().filter(c -> c.path("name").asText().equals("process " + prefix + audit))
                    .toList();
            assertThat(batches).hasSize(batchCount).allSatisfy(b ->
                    assertThat(auditProducers).contains(b.path("parentSpanId").asText()));
            assertThat(batches.stream().mapToInt(b -> b.path("tags").path("messaging.batch.message_count").asInt()).sum())
                    .isEqualTo(3);
            // each listener's JDBC insert and WebClient call, and the /api/ping it reached, under its CONSUMER span
            for (JsonNode consumer : consumers) {
                List<JsonNode> calls = spans(trace, "CLIENT").stream()
                        .filter(c -> c.path("parentSpanId").asText().equals(consumer.path("spanId").asText())).toList();
                assertThat(calls).as("calls of %s", consumer).hasSize(2);
                JsonNode insert = calls.stream().filter(c -> c.path("tags").has("db.system")).findFirst().orElseThrow();
                assertThat(insert.path("tags").path("db.system").asText()).isEqualTo("h2");
                JsonNode ping = calls.stream().filter(c -> !c.path("tags").has("db.system")).findFirst().orElseThrow();
                assertThat(spans(trace, "SERVER")).anySatisfy(s -> {
                    assertThat(s.path("parentSpanId").asText()).isEqualTo(ping.path("spanId").asText());
                    assertThat(s.path("name").asText()).isEqualTo("GET /api/ping");
                });
            }

            // a record with a malformed traceparent: processed as any other, in a trace of its own (not recorded at
            // the default sampling of new traces), and the agent says nothing about it
            int agentLines = agentLines(app);
            for (String key : List.of("bad1", "bad2", "bad3")) {
                HttpResponse<String> raw = HTTP.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/api/raw/" + key)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(raw.statusCode()).as(raw.body()).isEqualTo(200);
                app.awaitLine("^ORDER key=" + key + " pong$", WAIT);
            }
            List<String> badPings = app.lines().stream().filter(l -> l.startsWith("PING traceparent="))
                    .skip(1 + batchCount).toList();
            assertThat(badPings).hasSize(3).allSatisfy(l -> {
                assertThat(l).doesNotContain("this-is-not").doesNotContain(traceId);
                assertThat(l).matches("PING traceparent=(null|00-[0-9a-f]{32}-[0-9a-f]{16}-00)");
            });
            assertThat(awaitConsumed(service, prefix + orders, 4)).isEqualTo(4);
            assertThat(agentLines(app)).isEqualTo(agentLines);
            // nothing thrown into the listeners (Spring Kafka logs a failed record at ERROR), no agent frame anywhere
            assertThat(app.lines()).noneMatch(l -> l.contains(" ERROR ") || l.contains("SEND-FAILED")
                    || l.contains("io.argus.plugin.") || l.contains("io.argus.bridge.") || l.contains("io.argus.core."));

            assertThat(awaitConsumed(service, prefix + audit, 3)).isEqualTo(3);
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    private static List<Integer> batchSizes(AgentApp app) {
        return app.lines().stream().map(BATCH::matcher).filter(Matcher::matches)
                .map(m -> Integer.parseInt(m.group(1))).toList();
    }

    private static int agentLines(AgentApp app) {
        return (int) app.lines().stream().filter(l -> l.startsWith("[argus]")).count();
    }

    private static long awaitConsumed(String service, String topic, long count) {
        return CollectorClient.await("consume metric of " + topic + " in " + service, WAIT, () -> {
            for (JsonNode row : api.get("/api/metrics/http?service=" + service + "&kind=consume")) {
                if (row.path("target").asText().equals(topic)) {
                    return row;
                }
            }
            return null;
        }, row -> row != null && row.path("count").asLong() >= count).path("count").asLong();
    }
}
