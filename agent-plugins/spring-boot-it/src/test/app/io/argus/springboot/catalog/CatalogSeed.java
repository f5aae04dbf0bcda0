package io.argus.springboot.catalog;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.stereotype.Component;

/** Three products in MongoDB at start-up, before the service answers. */
@Component
public class CatalogSeed implements ApplicationRunner {

    private final MongoTemplate mongo;

    public CatalogSeed(MongoTemplate mongo) {
        this.mongo = mongo;
    }

    @Override
    public void run(ApplicationArguments args) {
        mongo.dropCollection("products");
        mongo.insert(new Product("1", "apple"), "products");
        mongo.insert(new Product("2", "pear"), "products");
        mongo.insert(new Product("3", "plum"), "products");
    }
}
