package io.argus.springboot.catalog;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot service that reads through Redis and MongoDB: {@code GET /api/products/{id}} looks the
 * product up in a Redis cache (Spring Data Redis on Lettuce), reads it from MongoDB on a miss (Spring
 * Data MongoDB, the sync driver) and caches it, and counts the view in Redis. Redis and MongoDB are given
 * with {@code --spring.data.redis.port} and {@code --spring.data.mongodb.uri}.
 */
@SpringBootApplication
public class CatalogApp {

    public static void main(String[] args) {
        SpringApplication.run(CatalogApp.class, args);
    }
}
