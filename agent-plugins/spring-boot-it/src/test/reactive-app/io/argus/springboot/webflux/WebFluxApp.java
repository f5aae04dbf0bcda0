package io.argus.springboot.webflux;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * A WebFlux service on Reactor Netty, run twice: the edge ({@code --app.downstream} set) calls the downstream one
 * with WebClient. Annotated routes in {@link EdgeController} and {@link ItemsController}; one functional route here.
 */
@SpringBootApplication
public class WebFluxApp {

    public static void main(String[] args) {
        SpringApplication.run(WebFluxApp.class, args);
    }

    @Bean
    WebClient downstream(WebClient.Builder builder, @Value("${app.downstream:http://127.0.0.1:1}") String url) {
        return builder.baseUrl(url).build();
    }

    /** A functional endpoint: its pattern names the route as a controller's does. */
    @Bean
    RouterFunction<ServerResponse> prices() {
        return RouterFunctions.route()
                .GET("/fn/prices/{item}", request -> {
                    String item = request.pathVariable("item");
                    System.out.println("PRICE item=" + item + " traceparent="
                            + request.headers().firstHeader("traceparent"));
                    return ServerResponse.ok().body(Mono.just("price-" + item), String.class);
                })
                .build();
    }
}
