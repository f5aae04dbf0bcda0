package io.argus.collector.kafka;

import io.argus.collector.record.RecordTopic;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Producer;

/** The start checks of the four topics, and the cluster probe of the health check. */
final class KafkaTopics {
    private KafkaTopics() {
    }

    /**
     * Waits for the cluster, then checks that the topics exist, creating the missing ones when
     * {@link KafkaSettings#createPartitions()} is set.
     *
     * @throws IllegalStateException naming the setting at fault
     */
    static void ensure(Admin admin, KafkaSettings settings) {
        long timeoutMs = settings.startTimeout().toMillis();
        Set<String> existing;
        try {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeoutMs)).nodes()
                    .get(timeoutMs, TimeUnit.MILLISECONDS);
            existing = admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw unreachable(settings, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
                throw unreachable(settings, e);
            }
            throw new IllegalStateException("cannot reach Kafka at --kafka-bootstrap " + settings.bootstrap() + ": "
                    + e.getCause().getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting to Kafka", e);
        }
        List<String> missing = new ArrayList<>();
        for (RecordTopic t : RecordTopic.values()) {
            if (!existing.contains(settings.topic(t))) {
                missing.add(settings.topic(t));
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        if (settings.createPartitions() == 0) {
            throw new IllegalStateException("Kafka at --kafka-bootstrap " + settings.bootstrap()
                    + " has no topic " + String.join(", ", missing) + " (--kafka-topic-prefix '"
                    + settings.topicPrefix() + "'): create it, or pass --kafka-create-topics PARTITIONS");
        }
        List<NewTopic> create = new ArrayList<>();
        for (String name : missing) {
            create.add(new NewTopic(name, Optional.of(settings.createPartitions()), Optional.empty()));
        }
        try {
            admin.createTopics(create).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw new IllegalStateException("cannot create " + String.join(", ", missing) + " on Kafka at"
                        + " --kafka-bootstrap " + settings.bootstrap() + " (--kafka-create-topics): "
                        + e.getCause().getMessage(), e);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating " + String.join(", ", missing) + " on Kafka at"
                    + " --kafka-bootstrap " + settings.bootstrap() + " took more than "
                    + settings.startTimeout().toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        }
    }

    private static IllegalStateException unreachable(KafkaSettings settings, Exception cause) {
        return new IllegalStateException("cannot reach Kafka at --kafka-bootstrap " + settings.bootstrap()
                + " within " + settings.startTimeout().toSeconds() + " s", cause);
    }

    /** Learns each topic's partitions into the producer's metadata cache, so that sends never wait for it. */
    static void learnPartitions(Producer<?, ?> producer, KafkaSettings settings) {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        for (RecordTopic t : RecordTopic.values()) {
            String topic = settings.topic(t);
            while (true) {
                try {
                    if (!producer.partitionsFor(topic).isEmpty()) {
                        break;
                    }
                } catch (org.apache.kafka.common.errors.TimeoutException e) {
                    // max.block.ms is short; the metadata request goes on in the background
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("Kafka at --kafka-bootstrap " + settings.bootstrap()
                            + " gave no partitions for " + topic + " within " + settings.startTimeout().toSeconds()
                            + " s");
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while connecting to Kafka", e);
                }
            }
        }
    }

    /** {@code null} when the cluster answers within {@code timeout}, else what went wrong. */
    static String probe(Admin admin, Duration timeout) {
        try {
            DescribeClusterOptions options = new DescribeClusterOptions().timeoutMs((int) timeout.toMillis());
            if (admin.describeCluster(options).nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS).isEmpty()) {
                return "the cluster lists no broker";
            }
            return null;
        } catch (TimeoutException e) {
            return "no answer from the cluster within " + timeout.toMillis() + " ms";
        } catch (ExecutionException e) {
            return String.valueOf(e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
