package io.argus.collector.kafka;

import io.argus.collector.record.RecordTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How an ingest-only collector reaches Kafka.
 *
 * @param bootstrap          {@code host:port[,host:port...]} of one or more brokers ({@code --kafka-bootstrap})
 * @param topicPrefix        prefix of the four topic names ({@code --kafka-topic-prefix}, default {@code argus-})
 * @param createPartitions   create missing topics with this many partitions; 0: a missing topic is an error at
 *                           start ({@code --kafka-create-topics})
 * @param bufferBytes        most record bytes handed to the producer and not yet acknowledged; also the producer's
 *                           {@code buffer.memory} ({@code --kafka-buffer-bytes})
 * @param startTimeout       how long the start waits for the cluster and its topics
 * @param stallTimeout       records unacknowledged this long make the node stop accepting data
 * @param clientProperties   further producer and admin client properties ({@code --kafka-config FILE}: security,
 *                           TLS, SASL...); those the node depends on ({@code acks}, idempotence...) cannot be changed
 */
public record KafkaSettings(String bootstrap, String topicPrefix, int createPartitions, long bufferBytes,
                            Duration startTimeout, Duration stallTimeout, Map<String, String> clientProperties) {

    public static final long DEFAULT_BUFFER_BYTES = 32L * 1024 * 1024;
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(5);

    public KafkaSettings {
        Objects.requireNonNull(topicPrefix, "topicPrefix");
        Objects.requireNonNull(startTimeout, "startTimeout");
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        clientProperties = Map.copyOf(clientProperties == null ? Map.of() : clientProperties);
        parseBootstrap(bootstrap);
        if (!topicPrefix.matches("[A-Za-z0-9._-]*") || topicPrefix.length() > 200) {
            throw new IllegalArgumentException("invalid value for --kafka-topic-prefix: '" + topicPrefix
                    + "' (topic names take only letters, digits, '.', '_' and '-')");
        }
        if (createPartitions < 0) {
            throw new IllegalArgumentException("--kafka-create-topics must not be negative, got " + createPartitions);
        }
        if (bufferBytes < 1024 * 1024) {
            throw new IllegalArgumentException("--kafka-buffer-bytes must be at least 1048576, got " + bufferBytes);
        }
        if (startTimeout.isNegative() || startTimeout.isZero() || stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("Kafka timeouts must be positive");
        }
    }

    /** Defaults for everything but the brokers. */
    public static KafkaSettings of(String bootstrap) {
        return new KafkaSettings(bootstrap, RecordTopic.DEFAULT_PREFIX, 0, DEFAULT_BUFFER_BYTES,
                DEFAULT_START_TIMEOUT, DEFAULT_STALL_TIMEOUT, Map.of());
    }

    public KafkaSettings withTopicPrefix(String prefix) {
        return new KafkaSettings(bootstrap, prefix, createPartitions, bufferBytes, startTimeout, stallTimeout,
                clientProperties);
    }

    public KafkaSettings withCreatePartitions(int partitions) {
        return new KafkaSettings(bootstrap, topicPrefix, partitions, bufferBytes, startTimeout, stallTimeout,
                clientProperties);
    }

    public KafkaSettings withBufferBytes(long bytes) {
        return new KafkaSettings(bootstrap, topicPrefix, createPartitions, bytes, startTimeout, stallTimeout,
                clientProperties);
    }

    public KafkaSettings withTimeouts(Duration start, Duration stall) {
        return new KafkaSettings(bootstrap, topicPrefix, createPartitions, bufferBytes, start, stall,
                clientProperties);
    }

    public KafkaSettings withClientProperties(Map<String, String> properties) {
        return new KafkaSettings(bootstrap, topicPrefix, createPartitions, bufferBytes, startTimeout, stallTimeout,
                properties);
    }

    /** The topic of {@code topic}'s records under this prefix. */
    public String topic(RecordTopic topic) {
        return topic.topic(topicPrefix);
    }

    /**
     * Checks a broker list: comma-separated {@code host:port} entries ({@code [v6]:port} for IPv6), port 1..65535.
     *
     * @return the entries, trimmed
     * @throws IllegalArgumentException naming {@code --kafka-bootstrap} and the bad entry
     */
    public static List<String> parseBootstrap(String bootstrap) {
        if (bootstrap == null || bootstrap.isBlank()) {
            throw new IllegalArgumentException("--kafka-bootstrap is required with --storage kafka"
                    + " (host:port of one or more brokers, comma-separated)");
        }
        List<String> out = new ArrayList<>();
        for (String raw : bootstrap.split(",", -1)) {
            String entry = raw.strip();
            int colon = entry.lastIndexOf(':');
            String host = colon < 0 ? "" : entry.substring(0, colon);
            int port = -1;
            try {
                port = colon < 0 ? -1 : Integer.parseInt(entry.substring(colon + 1));
            } catch (NumberFormatException e) {
                // reported below
            }
            boolean hostOk = host.startsWith("[") ? host.endsWith("]") && host.length() > 2
                    : !host.isEmpty() && host.matches("[A-Za-z0-9._-]+");
            if (!hostOk || port < 1 || port > 65535) {
                throw new IllegalArgumentException("invalid value for --kafka-bootstrap: '" + entry
                        + "' is not host:port (in '" + bootstrap + "')");
            }
            out.add(entry);
        }
        return out;
    }

    @Override
    public String toString() {
        return "KafkaSettings[bootstrap=" + bootstrap + ", topicPrefix=" + topicPrefix + ", createPartitions="
                + createPartitions + ", bufferBytes=" + bufferBytes + ", clientProperties="
                + clientProperties.keySet() + "]";
    }
}
