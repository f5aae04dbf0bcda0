package io.argus.springboot.kafka;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;

/**
 * A WebFlux service that produces to Kafka with {@code KafkaTemplate} and consumes with two {@code @KafkaListener}s:
 * one record at a time ({@code orders}) and in batches ({@code audit}). Each listener calls the service's own
 * {@code /api/ping} with WebClient and writes to H2 with plain JDBC, so that its processing has calls of its own.
 * {@code /api/raw/{id}} sends a record with a malformed {@code traceparent} header from a thread without a trace.
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
        try {
            this.db = DriverManager.getConnection("jdbc:h2:mem:listeners;DB_CLOSE_DELAY=-1");
            db.createStatement().execute("CREATE TABLE seen (k VARCHAR(64), n INT)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One JDBC call: the listeners run on their own container threads, so each statement is its own. */
    private void remember(String key, int n) {
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO seen VALUES (?, ?)")) {
            insert.setString(1, key);
            insert.setInt(2, n);
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private final Environment environment;
    private final Connection db;

    private String callPing() {
        return self.get().uri(u -> u.port(environment.getProperty("local.server.port")).path("/api/ping").build())
                .retrieve().bodyToMono(String.class).block();
    }

    public static void main(String[] args) {
        SpringApplication.run(KafkaListenersApp.class, args);
    }

    /**
     * One record to {@code orders} and three to {@code audit}, acknowledged before the answer. All sent from the
     * request's thread: a send chained on an acknowledgement would run on the producer's network thread and block it
     * on the next topic's metadata, which that thread itself has to fetch.
     */
    @GetMapping("/api/orders/{id}")
    public Mono<String> order(@PathVariable("id") String id) {
        CompletableFuture<?>[] sent = {
                kafka.send(orders, id, "order-" + id),
                kafka.send(audit, id, "audit-" + id + "-a"),
                kafka.send(audit, id, "audit-" + id + "-b"),
                kafka.send(audit, id, "audit-" + id + "-c")};
        return Mono.fromFuture(CompletableFuture.allOf(sent)).thenReturn("sent " + id);
    }

    /** A record whose {@code traceparent} is not one, sent from a thread of its own with no trace. */
    @GetMapping("/api/raw/{id}")
    public Mono<String> raw(@PathVariable("id") String id) throws InterruptedException {
        Thread untraced = new Thread(() -> {
            ProducerRecord<String, String> record = new ProducerRecord<>(orders, id, "raw-" + id);
            record.headers().add("traceparent", "00-this-is-not-a-trace-id-01".getBytes(StandardCharsets.UTF_8));
            try {
                kafka.send(record).get();
            } catch (Exception e) {
                System.out.println("SEND-FAILED " + e);
            }
        });
        untraced.start();
        untraced.join();
        return Mono.just("sent " + id);
    }

    @GetMapping("/api/ping")
    public Mono<String> ping(@RequestHeader(name = "traceparent", required = false) String traceparent) {
        System.out.println("PING traceparent=" + traceparent);
        return Mono.just("pong");
    }

    @KafkaListener(topics = "${app.topic-prefix:}orders", groupId = "orders-listener")
    public void onOrder(ConsumerRecord<String, String> record) {
        remember(record.key(), 1);
        String pong = callPing();
        System.out.println("ORDER key=" + record.key() + " " + pong);
    }

    @KafkaListener(topics = "${app.topic-prefix:}audit", groupId = "audit-listener", batch = "true")
    public void onAudit(List<ConsumerRecord<String, String>> records) {
        remember(records.get(0).key(), records.size());
        String pong = callPing();
        System.out.println("AUDIT batch=" + records.size() + " " + pong);
    }
}
