package io.argus.springboot.kafka;

import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * A WebFlux service that produces to Kafka with {@code KafkaTemplate} and consumes with two {@code @KafkaListener}s:
 * one record at a time ({@code orders}) and in batches ({@code audit}). Each listener calls the service's own
 * {@code /api/ping} with WebClient, so that its processing has a call of its own.
 */
@SpringBootApplication
@RestController
public class KafkaListenersApp {

    private final KafkaTemplate<String, String> kafka;
    private final WebClient self;
    private final String orders;
    private final String audit;

    /** The server's own port is known once it started: the client reads it per call. */
    public KafkaListenersApp(KafkaTemplate<String, String> kafka, WebClient.Builder builder, Environment environment,
                             @Value("${app.topic-prefix:}") String prefix) {
        this.kafka = kafka;
        this.self = builder.baseUrl("http://127.0.0.1").build();
        this.environment = environment;
        this.orders = prefix + "orders";
        this.audit = prefix + "audit";
    }

    private final Environment environment;

    private String callPing() {
        return self.get().uri(u -> u.port(environment.getProperty("local.server.port")).path("/api/ping").build())
                .retrieve().bodyToMono(String.class).block();
    }

    public static void main(String[] args) {
        SpringApplication.run(KafkaListenersApp.class, args);
    }

    /** One record to {@code orders} and three to {@code audit}, acknowledged before the answer. */
    @GetMapping("/api/orders/{id}")
    public Mono<String> order(@PathVariable("id") String id) {
        return Mono.fromFuture(() -> kafka.send(orders, id, "order-" + id))
                .then(Mono.fromFuture(() -> kafka.send(audit, id, "audit-" + id + "-a")))
                .then(Mono.fromFuture(() -> kafka.send(audit, id, "audit-" + id + "-b")))
                .then(Mono.fromFuture(() -> kafka.send(audit, id, "audit-" + id + "-c")))
                .thenReturn("sent " + id);
    }

    @GetMapping("/api/ping")
    public Mono<String> ping() {
        return Mono.just("pong");
    }

    @KafkaListener(topics = "${app.topic-prefix:}orders", groupId = "orders-listener")
    public void onOrder(ConsumerRecord<String, String> record) {
        String pong = callPing();
        System.out.println("ORDER key=" + record.key() + " " + pong);
    }

    @KafkaListener(topics = "${app.topic-prefix:}audit", groupId = "audit-listener", batch = "true")
    public void onAudit(List<ConsumerRecord<String, String>> records) {
        String pong = callPing();
        System.out.println("AUDIT batch=" + records.size() + " " + pong);
    }
}
