package io.argus.collector.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.Collector;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

/** Test client for the collector's HTTP API (real HTTP through java.net.http). */
public final class Api {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String base;
    private final HttpClient client;
    private final String authorization;

    public Api(Collector collector) {
        this(collector, CLIENT, null);
    }

    /**
     * An API client through {@code client} (e.g. one trusting a test certificate; the scheme follows the
     * collector's config) that sends {@code authorization} ({@code null}: none) with every request.
     */
    public Api(Collector collector, HttpClient client, String authorization) {
        String url = collector.httpUrl();
        this.base = url.substring(0, url.length() - 1);
        this.client = client;
        this.authorization = authorization;
    }

    public record Response(int status, String contentType, String body, HttpHeaders headers) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }
    }

    public Response get(String path) {
        return get(path, authorization);
    }

    /** GET with this {@code Authorization} header ({@code null}: none) instead of the client's own. */
    public Response get(String path, String authorization) {
        try {
            HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20));
            if (authorization != null) {
                req.header("Authorization", authorization);
            }
            HttpResponse<String> res = client.send(req.GET().build(), HttpResponse.BodyHandlers.ofString());
            return new Response(res.statusCode(), res.headers().firstValue("content-type").orElse(""), res.body(),
                    res.headers());
        } catch (IOException e) {
            throw new AssertionError("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** GET that must answer 200 with JSON. */
    public JsonNode json(String path) {
        Response r = get(path);
        if (r.status() != 200) {
            throw new AssertionError("GET " + path + " -> " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    /** Polls {@code path} until {@code done} accepts the JSON answer (data arrives asynchronously). */
    public JsonNode await(String path, Predicate<JsonNode> done) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = json(path);
            if (done.test(last)) {
                return last;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError("GET " + path + " never satisfied the condition; last answer: " + last);
    }

    /** Value of one sample line of {@code /metrics}, e.g. {@code argus_collector_spans_stored_total}. */
    public double metric(String sample) {
        String text = get("/metrics").body();
        for (String line : text.split("\n")) {
            if (line.startsWith(sample + " ")) {
                return Double.parseDouble(line.substring(sample.length() + 1).trim());
            }
        }
        throw new AssertionError("no sample " + sample + " in /metrics");
    }

    /** Polls a /metrics sample until it reaches {@code expected}. */
    public double awaitMetric(String sample, double expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        double v = Double.NaN;
        while (System.nanoTime() < deadline) {
            v = metric(sample);
            if (v >= expected) {
                return v;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        throw new AssertionError(sample + " stayed at " + v + ", expected " + expected);
    }
}
