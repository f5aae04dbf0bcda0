package io.argus.springboot.catalog;

import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;

/** The product read: Redis cache, MongoDB on a miss, a view counter in Redis. */
@RestController
public class CatalogController {

    private final StringRedisTemplate redis;
    private final MongoTemplate mongo;

    public CatalogController(StringRedisTemplate redis, MongoTemplate mongo) {
        this.redis = redis;
        this.mongo = mongo;
    }

    @GetMapping("/api/products/{id}")
    public String product(@PathVariable("id") String id) {
        String key = "product:" + id;
        String name = redis.opsForValue().get(key);
        String source = "cache";
        if (name == null) {
            Product product = mongo.findOne(Query.query(Criteria.where("sku").is(id)), Product.class, "products");
            name = product == null ? "none" : product.getName();
            redis.opsForValue().set(key, name, Duration.ofMinutes(5));
            source = "mongodb";
        }
        Long views = redis.opsForValue().increment("views:" + id);
        return name + " " + source + " views=" + views;
    }
}
