package io.argus.plugin.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.cluster.kafka.KafkaBroker;
import io.argus.cluster.kafka.KafkaInstall;
import io.argus.plugin.kafka.app.KafkaApp;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The plugin against a real KRaft broker (local-cluster's {@link KafkaBroker}, one for the class) and the real
 * kafka-clients 3.x and 4.x in forked application JVMs with the agent at its default settings, on JDK 17 and
 * Temurin 25: an HTTP request that produces a record is one trace with the consuming service's CONSUMER span and
 * the JDBC and HTTP calls made while processing it; the messaging metrics per topic; a record with a malformed
 * {@code traceparent} is processed as any other, starts a trace of its own, and the agent logs nothing for it.
 */
class KafkaClientsIT extends AbstractCollectorIT {

    @TempDir
    static Path work;
    private static KafkaBroker broker;
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final List<AgentApp> APPS = new ArrayList<>();

    @BeforeAll
    static void startBroker() throws Exception {
        broker = KafkaBroker.start(KafkaInstall.pinned(), work.resolve("kafka"));
    }

    @AfterAll
    static void stopAll() throws Exception {
        APPS.forEach(AgentApp::close);
        if (broker != null) {
            broker.close();
        }
    }

    /** (kafka-clients line folder, JDK): 3.x and 4.x each on both JDKs. */
    static Stream<Arguments> lines() {
        List<Arguments> out = new ArrayList<>();
        for (String dir : System.getProperty("argus.kafka.clients.dirs").split(",")) {
            for (String javaHome : AgentApp.javaHomes()) {
                out.add(Arguments.of(dir, javaHome));
            }
        }
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("lines")
    void aRequestThatProducesIsOneTraceWithTheConsumersSpanAndItsCalls(String clientsDir, String javaHome)
            throws Exception {
        String label = Path.of(clientsDir).getFileName() + "-" + jdkLabel(javaHome);
        String topic = "orders-" + label;
        broker.createTopics(1, topic);
        Services s = start(label, topic, clientsDir, javaHome, null);

        String traceId = hex(32);
        String rootSpan = hex(16);
        HttpResponse<String> sent = HTTP.send(HttpRequest.newBuilder(URI.create(s.producerUrl + "/produce?key=k1"))
                .header("traceparent", "00-" + traceId + "-" + rootSpan + "-01").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(sent.statusCode()).isEqualTo(200);
        s.consumer.awaitLine("^CONSUMED k1$", WAIT);

        JsonNode trace = awaitTrace(traceId, 6);
        JsonNode server = spans(trace, "SERVER").stream()
                .filter(sp -> sp.path("name").asText().endsWith("/produce")).findFirst().orElseThrow();
        assertThat(server.path("parentSpanId").asText()).isEqualToIgnoringCase(rootSpan);
        JsonNode producer = span(trace, "PRODUCER");
        assertThat(producer.path("name").asText()).isEqualTo("publish " + topic);
        assertThat(producer.path("service").asText()).isEqualTo(s.producerService);
        assertThat(producer.path("parentSpanId").asText()).isEqualTo(server.path("spanId").asText());
        assertThat(producer.path("tags").path("messaging.system").asText()).isEqualTo("kafka");
        assertThat(producer.path("tags").path("messaging.destination.name").asText()).isEqualTo(topic);
        JsonNode consumer = span(trace, "CONSUMER");
        assertThat(consumer.path("name").asText()).isEqualTo("process " + topic);
        assertThat(consumer.path("service").asText()).isEqualTo(s.consumerService);
        assertThat(consumer.path("parentSpanId").asText()).isEqualTo(producer.path("spanId").asText());
        List<JsonNode> calls = spans(trace, "CLIENT");
        assertThat(calls).extracting(c -> c.path("parentSpanId").asText())
                .containsOnly(consumer.path("spanId").asText());
        assertThat(calls).extracting(c -> c.path("tags").has("db.system") ? "db" : "http")
                .containsExactlyInAnyOrder("db", "http");
        JsonNode ping = spans(trace, "SERVER").stream()
                .filter(sp -> sp.path("name").asText().endsWith("/ping")).findFirst().orElseThrow();
        assertThat(calls).extracting(c -> c.path("spanId").asText()).contains(ping.path("parentSpanId").asText());
        assertThat(trace.path("spans")).filteredOn(AbstractCollectorIT::isRoot).isEmpty();

        // the messaging metrics, per topic: produced (acknowledged by the broker) and consumed
        assertThat(awaitMetric(s.producerService, "produce", topic, 1).path("count").asLong()).isEqualTo(1);
        JsonNode consumed = awaitMetric(s.consumerService, "consume", topic, 1);
        assertThat(consumed.path("count").asLong()).isEqualTo(1);
        assertThat(consumed.path("method").asText()).isEqualTo("kafka");
        assertThat(consumed.path("errors").asLong()).isZero();
        assertThat(agentGauge(s.consumerService, "agent.advice.errors")).isZero();
        assertThat(agentGauge(s.producerService, "agent.advice.errors")).isZero();
    }

    @Test
    void aRecordWithAMalformedTraceparentStartsATraceOfItsOwnAndTheAgentLogsNothingForIt() throws Exception {
        String clientsDir = System.getProperty("argus.kafka.clients.dirs").split(",")[1];
        String topic = "malformed";
        broker.createTopics(1, topic);
        // a new root needs the sampler's yes: this consumer samples every root
        Services s = start("malformed", topic, clientsDir, JDK, "100");
        int agentLinesBefore = agentLines(s.consumer);

        for (String key : List.of("bad1", "bad2", "bad3")) {
            assertThat(HTTP.send(HttpRequest.newBuilder(URI.create(s.producerUrl + "/produce-raw?key=" + key)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            s.consumer.awaitLine("^CONSUMED " + key + "$", WAIT);
        }
        Matcher ping = s.producer.awaitLine("^PING key=bad1 traceparent=00-([0-9a-f]{32})-([0-9a-f]{16})-01$", WAIT);
        JsonNode trace = awaitTrace(ping.group(1), 4);
        JsonNode consumer = span(trace, "CONSUMER");
        assertThat(isRoot(consumer)).isTrue();
        assertThat(consumer.path("name").asText()).isEqualTo("process " + topic);
        assertThat(spans(trace, "CLIENT")).extracting(c -> c.path("parentSpanId").asText())
                .containsOnly(consumer.path("spanId").asText());
        assertThat(agentLines(s.consumer)).isEqualTo(agentLinesBefore);
        assertThat(agentGauge(s.consumerService, "agent.advice.errors")).isZero();
        assertThat(awaitMetric(s.consumerService, "consume", topic, 3).path("count").asLong()).isEqualTo(3);
    }

    private record Services(AgentApp producer, AgentApp consumer, String producerUrl, String producerService,
                            String consumerService) {
    }

    private static Services start(String label, String topic, String clientsDir, String javaHome, String sampling)
            throws Exception {
        String cp = classPath(clientsDir);
        String producerService = "kafka-producer-" + label;
        String consumerService = "kafka-consumer-" + label;
        AgentApp producer = AgentApp.builder(KafkaApp.class.getName()).javaHome(javaHome).classpath(cp)
                .service(producerService).collector(collector.ingestPort()).logToTestLogs(producerService)
                .args("producer", broker.bootstrapServers(), topic).start();
        APPS.add(producer);
        String url = "http://127.0.0.1:" + producer.awaitLine("^PORT (\\d+)$", WAIT).group(1);
        AgentApp.Builder consumerBuilder = AgentApp.builder(KafkaApp.class.getName()).javaHome(javaHome)
                .classpath(cp).service(consumerService).collector(collector.ingestPort())
                .logToTestLogs(consumerService).args("consumer", broker.bootstrapServers(), topic, url + "/ping");
        if (sampling != null) {
            consumerBuilder.samplingRate(Double.parseDouble(sampling));
        }
        AgentApp consumer = consumerBuilder.start();
        APPS.add(consumer);
        consumer.awaitLine("^ASSIGNED 1$", Duration.ofSeconds(60));
        return new Services(producer, consumer, url, producerService, consumerService);
    }

    /** The metric row of {@code topic} once it counts {@code count} messages. */
    private static JsonNode awaitMetric(String service, String kind, String topic, long count) {
        return CollectorClient.await(kind + " metric of " + topic + " in " + service, WAIT,
                () -> find(api.get("/api/metrics/http?service=" + service + "&kind=" + kind), topic),
                row -> row.path("count").asLong() >= count);
    }

    private static JsonNode find(JsonNode rows, String topic) {
        for (JsonNode row : rows) {
            if (row.path("target").asText().equals(topic)) {
                return row;
            }
        }
        return null;
    }

    private static int agentLines(AgentApp app) {
        return (int) app.lines().stream().filter(l -> l.startsWith("[argus]")).count();
    }

    /** The test applications, the kafka-clients line's jars, and H2: never the test's own kafka-clients. */
    private static String classPath(String clientsDir) throws Exception {
        List<String> entries = new ArrayList<>();
        entries.add(Path.of(KafkaApp.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        try (Stream<Path> jars = Files.list(Path.of(clientsDir))) {
            jars.map(Path::toString).sorted().forEach(entries::add);
        }
        entries.add(Path.of(org.h2.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        return entries.stream().collect(Collectors.joining(File.pathSeparator));
    }
}
