package io.argus.collector.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A collector pointed at a Kafka that is not there fails to start with one line naming the setting. */
class KafkaStartCheckTest {

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void unreachableBrokerIsOneErrorNamingTheSetting() throws Exception {
        String bootstrap = "127.0.0.1:" + closedPort();
        KafkaSettings settings = KafkaSettings.of(bootstrap).withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(5));
        long start = System.nanoTime();
        assertThatThrownBy(() -> KafkaSink.start(settings, new SimpleMeterRegistry()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot reach Kafka at --kafka-bootstrap " + bootstrap + " within 3 s");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    }

    @Test
    void collectorStartFailsCleanlyWithoutKafka() throws Exception {
        String bootstrap = "127.0.0.1:" + closedPort();
        CollectorConfig config = CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(0)
                .kafka(KafkaSettings.of(bootstrap).withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(5)))
                .build();
        assertThatThrownBy(() -> Collector.start(config))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("--kafka-bootstrap " + bootstrap);
    }
}
