package io.argus.plugin.mongodb.app;

import com.mongodb.MongoClientSettings;
import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import io.argus.testing.app.Scenarios;
import org.bson.Document;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Arrays;

/**
 * The test application: the sync and the reactive-streams MongoDB drivers against the server at
 * {@code args[0]} (a connection string). Each scenario runs under a hand-made server span and prints
 * {@code ROOT tag=... traceparent=...}; failures print {@code ERROR tag=... class=...}; then
 * {@code CONTEXT tag=... current=...}. Before the last scenario it prints {@code STOP-SERVER} and waits
 * for the file {@code args[1]}, which the test writes once it has stopped the server.
 */
public final class MongoApp {

    public static void main(String[] args) throws Exception {
        // spans that end before the agent has connected to the collector are dropped by design
        Thread.sleep(1500);
        // timeouts in the connection string: the settings builders' signatures differ between 4.x and 5.x
        MongoClientSettings settings = MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(args[0]
                        + "/?serverSelectionTimeoutMS=2000&connectTimeoutMS=1000&socketTimeoutMS=2000"))
                .build();
        try (MongoClient client = MongoClients.create(settings);
             com.mongodb.reactivestreams.client.MongoClient reactive =
                     com.mongodb.reactivestreams.client.MongoClients.create(settings)) {
            MongoCollection<Document> orders = client.getDatabase("shop").getCollection("orders");
            // untraced, first: the clients find the server (and, for the reactive one, its sessions)
            orders.countDocuments();
            Mono.from(reactive.getDatabase("shop").getCollection("orders").countDocuments()).block();
            Scenarios.traced("sync", () -> {
                orders.insertOne(new Document("name", "secret-name").append("status", "paid").append("total", 42));
                orders.find(Filters.and(Filters.eq("status", "paid"), Filters.gt("total", 10))).first();
                orders.updateOne(Filters.eq("name", "secret-name"), Updates.set("status", "shipped"));
                orders.deleteMany(Filters.eq("status", "cancelled"));
            });
            com.mongodb.reactivestreams.client.MongoCollection<Document> reactiveOrders =
                    reactive.getDatabase("shop").getCollection("orders");
            Scenarios.traced("reactive", () -> {
                Mono.from(reactiveOrders.insertOne(new Document("name", "secret-reactive").append("status", "new"))).block();
                Flux.from(reactiveOrders.find(Filters.eq("status", "new"))).collectList().block();
            });
            Scenarios.traced("error", () -> {
                try {
                    client.getDatabase("shop").runCommand(new Document("noSuchCommand", 1));
                } catch (Exception e) {
                    Scenarios.error("error", e);
                }
            });
            Scenarios.traced("huge", () -> {
                char[] big = new char[1_000_000];
                Arrays.fill(big, 'v');
                orders.find(Filters.eq("name", new String(big))).first();
            });
            orders.countDocuments(); // untraced: metrics only
            Scenarios.afterwards("after");
            Scenarios.print("STOP-SERVER");
            while (!Files.exists(Paths.get(args[1]))) {
                Thread.sleep(20);
            }
            Scenarios.traced("down", () -> {
                try {
                    orders.find(Filters.eq("status", "paid")).first();
                } catch (Exception e) {
                    Scenarios.error("down", e);
                }
            });
        }
        Scenarios.print("DONE");
        Thread.sleep(Long.MAX_VALUE);
    }
}
