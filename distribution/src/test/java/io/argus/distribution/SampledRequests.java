package io.argus.distribution;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Requests as a sampled caller sends them: each with a {@code traceparent} of its own, so its trace can be asked for. */
final class SampledRequests {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private SampledRequests() {
    }

    /** A new random trace id, 32 hex digits. */
    static String traceId() {
        return String.format("%016x%016x", ThreadLocalRandom.current().nextLong() | 1, ThreadLocalRandom.current().nextLong());
    }

    /** GET {@code path} on the loopback {@code port}, sampled, in trace {@code traceId}; the status. */
    static int get(int port, String path, String traceId) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .header("traceparent", "00-" + traceId + "-" + String.format("%016x", ThreadLocalRandom.current().nextLong() | 1) + "-01")
                .timeout(Duration.ofSeconds(15)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** GET {@code path} without a traceparent: whether the service answered 200; false while it is not up. */
    static boolean answers(int port, String path) throws InterruptedException {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        }
    }
}
