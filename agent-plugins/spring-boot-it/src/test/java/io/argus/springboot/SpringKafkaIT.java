package io.argus.springboot;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.cluster.kafka.KafkaBroker;
import io.argus.cluster.kafka.KafkaInstall;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
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
 * its first record that carries a context, with the batch's size; each listener's WebClient call is under its
 * CONSUMER span. The consume metrics count every record.
 */
class SpringKafkaIT extends AbstractCollectorIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String MAIN = "io.argus.springboot.kafka.KafkaListenersApp";
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
            CollectorClient.await("the audit batches of " + service, WAIT, () -> app.lines().stream()
                    .map(BATCH::matcher).filter(Matcher::matches).mapToInt(m -> Integer.parseInt(m.group(1))).sum(),
                    records -> records >= 3);

            // SERVER, 4 PRODUCER, the record's CONSUMER with its CLIENT call and that call's SERVER span, and at least
            // one batch CONSUMER span with its call and that call's SERVER span
            JsonNode trace = awaitTrace(traceId, 12);
            List<JsonNode> spans = list(trace.path("spans"));
            Set<String> ids = spans.stream().map(s -> s.path("spanId").asText()).collect(Collectors.toSet());
            assertThat(spans).filteredOn(s -> !ids.contains(s.path("parentSpanId").asText())).hasSize(1)
                    .allSatisfy(root -> assertThat(root.path("name").asText()).isEqualTo("GET /api/orders/{id}"));
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
            JsonNode record = consumers.stream().filter(c -> c.path("name").asText().equals("process " + prefix + orders))
                    .findFirst().orElseThrow();
            assertThat(record.path("parentSpanId").asText()).isEqualTo(orderProducer.path("spanId").asText());
            List<JsonNode> batches = consumers.stream().filter(c -> c.path("name").asText().equals("process " + prefix + audit))
                    .toList();
            assertThat(batches).isNotEmpty().allSatisfy(b ->
                    assertThat(auditProducers).contains(b.path("parentSpanId").asText()));
            assertThat(batches.stream().mapToInt(b -> b.path("tags").path("messaging.batch.message_count").asInt()).sum())
                    .isEqualTo(3);
            // each listener's WebClient call, and the /api/ping it reached, under its CONSUMER span
            for (JsonNode consumer : consumers) {
                List<JsonNode> calls = spans(trace, "CLIENT").stream()
                        .filter(c -> c.path("parentSpanId").asText().equals(consumer.path("spanId").asText())).toList();
                assertThat(calls).as("calls of %s", consumer).hasSize(1);
                assertThat(spans(trace, "SERVER")).anySatisfy(s -> {
                    assertThat(s.path("parentSpanId").asText()).isEqualTo(calls.get(0).path("spanId").asText());
                    assertThat(s.path("name").asText()).isEqualTo("GET /api/ping");
                });
            }

            assertThat(awaitConsumed(service, prefix + orders, 1)).isEqualTo(1);
            assertThat(awaitConsumed(service, prefix + audit, 3)).isEqualTo(3);
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
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
