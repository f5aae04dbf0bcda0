package io.argus.springboot.webflux;

import java.time.Duration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** The edge service's routes: each calls the downstream service with WebClient. */
@RestController
public class EdgeController {

    private final WebClient downstream;

    public EdgeController(WebClient downstream) {
        this.downstream = downstream;
    }

    /** Two downstream calls joined with {@code Mono.zip}, the second after a hop to {@code boundedElastic}. */
    @GetMapping("/api/edge/{id}")
    public Mono<String> edge(@PathVariable("id") String id) {
        Mono<String> item = downstream.get().uri("/api/items/{id}", id).retrieve().bodyToMono(String.class);
        Mono<String> price = Mono.just(id).publishOn(Schedulers.boundedElastic())
                .flatMap(x -> downstream.get().uri("/fn/prices/{item}", x).retrieve().bodyToMono(String.class));
        return Mono.zip(item, price).map(both -> both.getT1() + "+" + both.getT2());
    }

    /** A downstream call given up after 200 ms: the call is cancelled. */
    @GetMapping("/api/impatient/{id}")
    public Mono<String> impatient(@PathVariable("id") String id) {
        return downstream.get().uri("/api/slow/{id}", id).retrieve().bodyToMono(String.class)
                .timeout(Duration.ofMillis(200)).onErrorReturn("gave-up");
    }

    /** Fails: answered with 500 by WebFlux's error handling. */
    @GetMapping("/api/fail/{id}")
    public Mono<String> fail(@PathVariable("id") String id) {
        return Mono.error(new IllegalStateException("failed " + id));
    }
}
