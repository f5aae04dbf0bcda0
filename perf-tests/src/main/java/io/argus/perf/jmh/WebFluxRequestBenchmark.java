package io.argus.perf.jmh;

import io.netty.channel.ChannelOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

/**
 * Reactive HTTP requests over loopback keep-alive connections, client and server in the benchmark's JVM (see
 * {@link ProbeCostMain}), Reactor Netty 1.3 on Netty 4.2, Spring Framework 7.0:
 * <ul>
 *   <li>{@link #reactorNettyRequest}: a Reactor Netty {@code HttpClient} GET to a Reactor Netty {@code HttpServer}
 *       route: the reactor-netty plugin (client), netty4-http-server (server) and reactor (the chains);</li>
 *   <li>{@link #webFluxAnnotated} and {@link #webFluxFunctional}: the same client to Spring WebFlux on Reactor
 *       Netty, an annotated controller and a {@code RouterFunction} route: the spring-webflux plugin on top.</li>
 * </ul>
 * At 100% the benchmark thread holds an open server span, so each request is a traced CLIENT call with
 * {@code traceparent}, and a SERVER span on the server's side.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WebFluxRequestBenchmark {

    private DisposableServer plain;
    private DisposableServer webFlux;
    private AnnotationConfigApplicationContext context;
    private HttpClient plainClient;
    private HttpClient webFluxClient;
    private ConnectionProvider connections;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        plain = HttpServer.create().host("127.0.0.1").port(0)
                .route(routes -> routes.get("/items/{id}", (req, res) -> res.sendString(Mono.just("item"))))
                .bindNow();
        context = new AnnotationConfigApplicationContext(WebFluxConfig.class);
        HttpHandler handler = WebHttpHandlerBuilder.applicationContext(context).build();
        webFlux = HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(handler)).bindNow();
        // one connection, kept alive: the connection's set-up is not what is measured
        connections = ConnectionProvider.create("bench", 1);
        plainClient = HttpClient.create(connections).option(ChannelOption.TCP_NODELAY, true)
                .baseUrl("http://127.0.0.1:" + plain.port());
        webFluxClient = HttpClient.create(connections).option(ChannelOption.TCP_NODELAY, true)
                .baseUrl("http://127.0.0.1:" + webFlux.port());
        if (Boolean.getBoolean("bench.openSpan")) {
            ProbeCostBenchmark.openServerSpan();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        connections.dispose();
        plain.disposeNow();
        webFlux.disposeNow();
        context.close();
    }

    @Benchmark
    public String reactorNettyRequest() {
        return plainClient.get().uri("/items/7").responseContent().aggregate().asString().block();
    }

    @Benchmark
    public String webFluxAnnotated() {
        return webFluxClient.get().uri("/api/items/7").responseContent().aggregate().asString().block();
    }

    @Benchmark
    public String webFluxFunctional() {
        return webFluxClient.get().uri("/fn/prices/7").responseContent().aggregate().asString().block();
    }

    @Configuration
    @EnableWebFlux
    public static class WebFluxConfig {

        @Bean
        public ItemsController items() {
            return new ItemsController();
        }

        @Bean
        public RouterFunction<ServerResponse> prices() {
            return RouterFunctions.route().GET("/fn/prices/{item}", request -> ServerResponse.ok().bodyValue("price"))
                    .build();
        }
    }

    @RestController
    public static class ItemsController {

        @GetMapping("/api/items/{id}")
        public Mono<String> item(@PathVariable("id") String id) {
            return Mono.just("item");
        }
    }
}
