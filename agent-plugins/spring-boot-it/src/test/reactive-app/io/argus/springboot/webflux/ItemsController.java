package io.argus.springboot.webflux;

import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** The downstream service's annotated routes. */
@RestController
public class ItemsController {

    @GetMapping("/api/items/{id}")
    public Mono<String> item(@PathVariable("id") String id, @RequestHeader HttpHeaders headers) {
        System.out.println("ITEM id=" + id + " traceparent=" + headers.getFirst("traceparent"));
        return Mono.just("item-" + id).delayElement(Duration.ofMillis(5));
    }

    /** Answers after two seconds: the edge gives up first. */
    @GetMapping("/api/slow/{id}")
    public Mono<String> slow(@PathVariable("id") String id) {
        return Mono.just("slow-" + id).delayElement(Duration.ofSeconds(2));
    }

    @GetMapping("/api/ping")
    public Mono<String> ping(@RequestHeader HttpHeaders headers) {
        System.out.println("PING traceparent=" + headers.getFirst("traceparent"));
        return Mono.just("pong");
    }
}
