package io.argus.collector.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** The producer and admin client properties of an ingest-only collector. */
final class KafkaClientConfig {
    /** Longest wait of {@code send()} on the event loop; metadata is learnt at start and kept, memory is bounded. */
    static final int MAX_BLOCK_MS = 10;

    private KafkaClientConfig() {
    }

    static Map<String, Object> producer(KafkaSettings settings) {
        Map<String, Object> p = new HashMap<>(settings.clientProperties());
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        p.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "argus-collector");
        p.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 128 * 1024);
        p.putIfAbsent(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        // what the no-loss promise rests on: not overridable
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        p.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
        // an accepted record waits (in bounded memory) for Kafka to come back rather than expire
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
        // a bit above the bound of pending record bytes: the producer's own buffer never makes send() wait
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, settings.bufferBytes() + 4L * 1024 * 1024);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK_MS);
        // topic metadata learnt at start stays cached through quiet hours, so send() never waits for it
        p.put(ProducerConfig.METADATA_MAX_IDLE_CONFIG, (int) Math.min(Integer.MAX_VALUE, 24L * 3600 * 1000));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return p;
    }

    static Map<String, Object> admin(KafkaSettings settings) {
        Map<String, Object> a = new HashMap<>();
        settings.clientProperties().forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                a.put(k, v);
            }
        });
        a.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrap());
        a.putIfAbsent(CommonClientConfigs.CLIENT_ID_CONFIG, "argus-collector-admin");
        a.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        a.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        return a;
    }
}
