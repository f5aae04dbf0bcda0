package io.argus.collector.storage.druid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Druid SQL over HTTP ({@code POST /druid/v2/sql}) with the JDK client, against a router or a broker. */
final class DruidSqlClient {
    private final URI base;
    private final Duration timeout;
    private final ObjectMapper json;
    private final HttpClient http;

    DruidSqlClient(URI base, Duration timeout, ObjectMapper json) {
        String s = base.toString();
        this.base = URI.create(s.endsWith("/") ? s.substring(0, s.length() - 1) : s);
        this.timeout = timeout;
        this.json = json;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    URI base() {
        return base;
    }

    /** The result rows, each a JSON object keyed by column name. */
    List<JsonNode> query(DruidStatement statement) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(statement.body(json));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        HttpRequest req = HttpRequest.newBuilder(base.resolve("/druid/v2/sql"))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        HttpResponse<String> res = send(req);
        if (res.statusCode() != 200) {
            throw new DruidQueryException("Druid SQL failed (" + res.statusCode() + "): " + errorMessage(res.body()),
                    res.statusCode(), null);
        }
        try {
            JsonNode rows = json.readTree(res.body());
            List<JsonNode> out = new ArrayList<>(rows.size());
            rows.forEach(out::add);
            return out;
        } catch (IOException e) {
            throw new DruidQueryException("Druid SQL answered unreadable JSON: " + abbreviate(res.body()), 200, e);
        }
    }

    /** GET of a Druid API path; the answer's status and body. */
    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).GET().build());
    }

    private HttpResponse<String> send(HttpRequest req) {
        try {
            return http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new DruidQueryException("Druid at " + base + " is unreachable: " + e, 0, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DruidQueryException("interrupted while querying Druid at " + base, 0, e);
        }
    }

    /** Druid's {@code errorMessage} (or {@code error}) of an error body, else the body itself. */
    private String errorMessage(String body) {
        try {
            JsonNode err = json.readTree(body);
            String msg = err.path("errorMessage").asText("");
            return msg.isEmpty() ? abbreviate(err.path("error").asText(body)) : abbreviate(msg);
        } catch (IOException e) {
            return abbreviate(body);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 500 ? s : s.substring(0, 500) + "...";
    }
}
