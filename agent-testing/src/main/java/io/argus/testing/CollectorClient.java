package io.argus.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Reads the collector's JSON API over real HTTP. */
public final class CollectorClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public CollectorClient(int httpPort) {
        this.base = "http://127.0.0.1:" + httpPort;
    }

    public JsonNode get(String pathAndQuery) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 404) {
                return null;
            }
            if (response.statusCode() != 200) {
                throw new IllegalStateException(pathAndQuery + " -> " + response.statusCode() + ": " + response.body());
            }
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("GET " + pathAndQuery + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public JsonNode services() {
        return get("/api/services");
    }

    public JsonNode traces(String service, int limit) {
        return get("/api/traces?service=" + enc(service) + "&limit=" + limit);
    }

    public JsonNode trace(String traceId) {
        return get("/api/traces/" + traceId);
    }

    public JsonNode httpMetrics(String service) {
        return get("/api/metrics/http?service=" + enc(service));
    }

    public JsonNode jvmMetrics(String service) {
        return get("/api/metrics/jvm?service=" + enc(service));
    }

    public JsonNode agents() {
        return get("/api/agents");
    }

    /** Whether an agent reporting as {@code service} is connected now. */
    public boolean agentConnected(String service) {
        for (JsonNode agent : agents()) {
            if (service.equals(agent.path("service").asText()) && agent.path("connected").asBoolean()) {
                return true;
            }
        }
        return false;
    }

    /** The server-side HTTP metric row for (method, path), or null. */
    public JsonNode serverMetric(String service, String method, String path) {
        return findMetric(service, "server", method, path);
    }

    public JsonNode clientMetric(String service, String method, String host) {
        return findMetric(service, "client", method, host);
    }

    private JsonNode findMetric(String service, String kind, String method, String target) {
        for (JsonNode row : httpMetrics(service)) {
            if (kind.equals(row.path("kind").asText()) && method.equals(row.path("method").asText())
                    && target.equals(row.path("target").asText())) {
                return row;
            }
        }
        return null;
    }

    /** Polls until {@code check} accepts the value, or fails with the last value seen. */
    public static <T> T await(String what, Duration timeout, Supplier<T> probe, Predicate<T> check) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = null;
        RuntimeException lastError = null;
        while (System.nanoTime() < deadline) {
            try {
                last = probe.get();
                if (last != null && check.test(last)) {
                    return last;
                }
            } catch (RuntimeException e) {
                lastError = e;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("timed out waiting for " + what + "; last value: " + last, lastError);
    }

    private static String enc(String value) {
        return value == null ? "" : URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
