package io.argus.fleet.kafka;

import io.argus.cluster.kafka.KafkaBroker;
import io.argus.cluster.kafka.KafkaInstall;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.kafka.KafkaSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** What the Kafka tests share: a broker in a per-test-class directory and ingest-only collectors in front of it. */
final class BrokerSupport {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private BrokerSupport() {
    }

    static KafkaBroker startBroker(String name) throws IOException, InterruptedException {
        Path dir = Path.of("target", "kafka", name + "-" + System.nanoTime());
        Files.createDirectories(dir);
        return KafkaBroker.start(KafkaInstall.pinned(), dir);
    }

    /** Ingest-only collector settings on free ports, topics created with 3 partitions when missing. */
    static CollectorConfig ingestConfig(KafkaBroker broker, String topicPrefix) {
        return CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(CollectorConfig.ANY_FREE_PORT)
                .kafka(KafkaSettings.of(broker.bootstrapServers()).withTopicPrefix(topicPrefix)
                        .withCreatePartitions(3).withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(2)))
                .build();
    }

    static Collector startIngest(KafkaBroker broker, String topicPrefix) {
        return Collector.start(ingestConfig(broker, topicPrefix));
    }

    static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(String url, String contentType, byte[] body)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Polls {@code condition} every 100 ms; fails with {@code what} after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(100);
        }
    }
}
