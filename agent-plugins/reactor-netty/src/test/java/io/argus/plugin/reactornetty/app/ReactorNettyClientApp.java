package io.argus.plugin.reactornetty.app;

import java.net.ServerSocket;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

/**
 * The application of {@code ReactorNettyClientIT}: a Reactor Netty HTTP server on one event-loop thread whose
 * {@code /edge} calls, with Reactor Netty's {@code HttpClient} and joined with {@code Mono.zip}: {@code /backend}
 * (answers), {@code /broken} (answers 500) after a {@code publishOn(boundedElastic)} hop, a closed port (refused), and
 * {@code /slow} given up after 200 ms (cancelled). {@code /backend} and {@code /broken} print the {@code traceparent}
 * they got. Prints {@code PORT n}.
 */
public final class ReactorNettyClientApp {

    private ReactorNettyClientApp() {
    }

    public static void main(String[] args) throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        int[] port = new int[1];
        HttpClient client = HttpClient.create().baseUrl("http://127.0.0.1:0");
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0)
                .runOn(LoopResources.create("argus-it", 1, true))
                .route(routes -> routes
                        .get("/edge", (req, res) -> {
                            HttpClient self = client.baseUrl("http://127.0.0.1:" + port[0]);
                            Mono<String> ok = self.get().uri("/backend").responseContent().aggregate().asString();
                            Mono<String> broken = Mono.just("/broken").publishOn(Schedulers.boundedElastic())
                                    .flatMap(uri -> self.get().uri(uri)
                                            .responseSingle((response, body) -> Mono.just(String.valueOf(response.status().code()))));
                            Mono<String> refused = HttpClient.create().get().uri("http://127.0.0.1:" + closed + "/none")
                                    .responseContent().aggregate().asString().onErrorReturn("refused");
                            Mono<String> slow = self.get().uri("/slow").responseContent().aggregate().asString()
                                    .timeout(Duration.ofMillis(200)).onErrorReturn("gave-up");
                            return res.sendString(Mono.zip(ok, broken, refused, slow)
                                    .map(all -> all.getT1() + "+" + all.getT2() + "+" + all.getT3() + "+" + all.getT4()));
                        })
                        .get("/backend", (req, res) -> {
                            System.out.println("BACKEND traceparent=" + req.requestHeaders().get("traceparent"));
                            return res.sendString(Mono.just("backend").delayElement(Duration.ofMillis(5)));
                        })
                        .get("/broken", (req, res) -> {
                            System.out.println("BROKEN traceparent=" + req.requestHeaders().get("traceparent"));
                            return res.status(500).sendString(Mono.just("broken"));
                        })
                        .get("/slow", (req, res) -> res.sendString(Mono.just("slow").delayElement(Duration.ofSeconds(2)))))
                .bindNow();
        port[0] = server.port();
        System.out.println("PORT " + port[0]);
        server.onDispose().block();
    }
}
