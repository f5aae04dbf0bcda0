package io.argus.plugin.reactor.app;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.resources.LoopResources;

/**
 * The application of {@code ReactorIT}: a Reactor Netty HTTP server on one event-loop thread, and a JDK HTTP
 * server (the sidecar) that prints the {@code traceparent} each request brings.
 * <ul>
 *   <li>{@code /edge}: calls {@code /backend} twice with the JDK's HttpClient, each call a {@code Mono.fromCallable}
 *       subscribed on {@code boundedElastic}, joined with {@code Mono.zip}, the second after a
 *       {@code publishOn(boundedElastic)} hop, then {@code flatMap}s into a call of the sidecar.</li>
 *   <li>{@code /backend}: answers after a {@code delayElement} (a timer thread).</li>
 *   <li>{@code /probe?n=N}: untraced requests that call the sidecar from the event loop's chain: a context left
 *       behind on the event loop or a scheduler's thread would travel with that call.</li>
 * </ul>
 * Prints {@code PORT n}.
 */
public final class ReactorApp {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ReactorApp() {
    }

    public static void main(String[] args) throws Exception {
        HttpServer sidecar = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        sidecar.createContext("/", exchange -> {
            System.out.println("SIDECAR " + exchange.getRequestURI().getQuery() + " traceparent="
                    + exchange.getRequestHeaders().getFirst("traceparent"));
            exchange.sendResponseHeaders(200, 2);
            exchange.getResponseBody().write("ok".getBytes(StandardCharsets.US_ASCII));
            exchange.close();
        });
        sidecar.start();
        String sidecarUrl = "http://127.0.0.1:" + sidecar.getAddress().getPort() + "/side";
        int[] port = new int[1];
        DisposableServer server = reactor.netty.http.server.HttpServer.create().host("127.0.0.1").port(0)
                .runOn(LoopResources.create("argus-it", 1, true))
                .route(routes -> routes
                        .get("/edge", (req, res) -> res.sendString(
                                Mono.zip(get("http://127.0.0.1:" + port[0] + "/backend?n=1"),
                                                get("http://127.0.0.1:" + port[0] + "/backend?n=2")
                                                        .publishOn(Schedulers.boundedElastic()))
                                        .flatMap(both -> get(sidecarUrl + "?from=edge")
                                                .map(side -> both.getT1() + "+" + both.getT2() + "+" + side))))
                        .get("/backend", (req, res) -> res.sendString(
                                Mono.just("backend").delayElement(Duration.ofMillis(5))))
                        .get("/probe", (req, res) -> res.sendString(
                                get(sidecarUrl + "?" + req.uri().substring(req.uri().indexOf('?') + 1)))))
                .bindNow();
        port[0] = server.port();
        System.out.println("PORT " + server.port());
        server.onDispose().block();
    }

    /** A blocking JDK HttpClient call, on boundedElastic. */
    private static Mono<String> get(String url) {
        return Mono.fromCallable(() -> HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString()).body())
                .subscribeOn(Schedulers.boundedElastic());
    }
}
