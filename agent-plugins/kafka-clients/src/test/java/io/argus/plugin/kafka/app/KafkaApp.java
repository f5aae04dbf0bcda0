package io.argus.plugin.kafka.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The applications of {@code KafkaClientsIT}, with the real kafka-clients of the line under test.
 * <ul>
 *   <li>{@code producer BOOTSTRAP TOPIC}: a JDK HTTP server whose {@code /produce?key=K} sends one record and waits
 *       for the broker; {@code /produce-raw?key=K} sends one from a thread without a trace, carrying a malformed
 *       {@code traceparent} header; {@code /ping} prints the {@code traceparent} it received. Prints {@code PORT n}.</li>
 *   <li>{@code consumer BOOTSTRAP TOPIC PING_URL}: a poll loop that, for each record, inserts its key into H2 and
 *       calls {@code PING_URL}, then prints {@code CONSUMED key}. Prints {@code ASSIGNED} once it owns the topic.</li>
 * </ul>
 */
public final class KafkaApp {

    private KafkaApp() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("producer")) {
            producer(args[1], args[2]);
        } else {
            consumer(args[1], args[2], args[3]);
        }
    }

    private static void producer(String bootstrap, String topic) throws IOException {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        p.put("acks", "all");
        KafkaProducer<String, String> producer = new KafkaProducer<>(p);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/produce", exchange -> {
            String key = key(exchange);
            try {
                producer.send(new ProducerRecord<>(topic, key, "value-" + key)).get();
                answer(exchange, 200, "sent " + key);
            } catch (Exception e) {
                answer(exchange, 500, e.toString());
            }
        });
        server.createContext("/produce-raw", exchange -> {
            String key = key(exchange);
            Thread untraced = new Thread(() -> {
                ProducerRecord<String, String> record = new ProducerRecord<>(topic, key, "value-" + key);
                record.headers().add("traceparent", "00-this-is-not-a-trace-id-01".getBytes(StandardCharsets.UTF_8));
                try {
                    producer.send(record).get();
                } catch (Exception e) {
                    System.out.println("SEND-FAILED " + e);
                }
            });
            untraced.start();
            try {
                untraced.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, "sent " + key);
        });
        server.createContext("/ping", exchange -> {
            String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
            System.out.println("PING key=" + key(exchange) + " traceparent=" + traceparent);
            answer(exchange, 200, "pong");
        });
        server.start();
        System.out.println("PORT " + server.getAddress().getPort());
    }

    private static void consumer(String bootstrap, String topic, String pingUrl) throws Exception {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", "it-" + topic);
        p.put("auto.offset.reset", "earliest");
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        HttpClient http = HttpClient.newHttpClient();
        try (Connection db = DriverManager.getConnection("jdbc:h2:mem:kafka;DB_CLOSE_DELAY=-1");
             KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            db.createStatement().execute("CREATE TABLE seen (k VARCHAR(64))");
            PreparedStatement insert = db.prepareStatement("INSERT INTO seen VALUES (?)");
            consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    System.out.println("ASSIGNED " + partitions.size());
                }
            });
            while (true) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                for (ConsumerRecord<String, String> record : records) {
                    insert.setString(1, record.key());
                    insert.executeUpdate();
                    http.send(HttpRequest.newBuilder(URI.create(pingUrl + "?key=" + record.key())).build(),
                            HttpResponse.BodyHandlers.ofString());
                    System.out.println("CONSUMED " + record.key());
                }
            }
        }
    }

    private static String key(HttpExchange exchange) {
        String q = exchange.getRequestURI().getQuery();
        return q == null ? "" : q.substring(q.indexOf('=') + 1);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }
}
