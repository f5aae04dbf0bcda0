package io.argus.fleet.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a topic from its beginning with a real consumer (no group), keeping every record read so far. */
final class TopicReader implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One record: its key, partition and JSON value. */
    record Rec(String key, int partition, JsonNode value) {
    }

    private final KafkaConsumer<String, String> consumer;
    private final List<Rec> records = new ArrayList<>();

    TopicReader(String bootstrap, String topic) {
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000));
        List<TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
    }

    /** Reads what has arrived within {@code wait}. */
    List<Rec> poll(Duration wait) {
        for (ConsumerRecord<String, String> r : consumer.poll(wait)) {
            try {
                records.add(new Rec(r.key(), r.partition(), JSON.readTree(r.value())));
            } catch (IOException e) {
                throw new UncheckedIOException("not JSON: " + r.value(), e);
            }
        }
        return records;
    }

    /** Reads until {@code done} holds for the records read so far, or fails after {@code timeout}. */
    List<Rec> until(Predicate<List<Rec>> done, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.test(poll(Duration.ofMillis(200)))) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("condition not met within " + timeout + "; read " + records.size()
                        + " records: " + records.subList(Math.max(0, records.size() - 5), records.size()));
            }
        }
        return records;
    }

    /** Reads until no record arrives for {@code quiet}; returns all read. */
    List<Rec> drain(Duration quiet) {
        int before;
        do {
            before = records.size();
            poll(quiet);
        } while (records.size() != before);
        return records;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
