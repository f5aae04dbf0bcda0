package io.argus.cluster.druid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The parts of Druid's HTTP API a deployment uses, through the router: supervisors and tasks (overlord), retention
 * rules (coordinator) and SQL (broker). Every call fails with an {@link IOException} carrying Druid's answer.
 */
public final class DruidApi {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public DruidApi(URI base) {
        this.base = base;
    }

    /** Creates or replaces the supervisor of the spec's datasource; returns its id. */
    public String submitSupervisor(JsonNode spec) throws IOException, InterruptedException {
        return post("/druid/indexer/v1/supervisor", spec).path("id").asText();
    }

    public void suspendSupervisor(String id) throws IOException, InterruptedException {
        post("/druid/indexer/v1/supervisor/" + encode(id) + "/suspend", null);
    }

    public void resumeSupervisor(String id) throws IOException, InterruptedException {
        post("/druid/indexer/v1/supervisor/" + encode(id) + "/resume", null);
    }

    /** Stops a supervisor for good (its tasks publish what they read). */
    public void terminateSupervisor(String id) throws IOException, InterruptedException {
        post("/druid/indexer/v1/supervisor/" + encode(id) + "/terminate", null);
    }

    /** The ids of the running supervisors. */
    public List<String> supervisors() throws IOException, InterruptedException {
        List<String> ids = new ArrayList<>();
        get("/druid/indexer/v1/supervisor").forEach(n -> ids.add(n.asText()));
        return ids;
    }

    /** The supervisor's status payload ({@code state}, {@code detailedState}, offsets...). */
    public JsonNode supervisorStatus(String id) throws IOException, InterruptedException {
        return get("/druid/indexer/v1/supervisor/" + encode(id) + "/status").path("payload");
    }

    /** Replaces the retention rules of a datasource. */
    public void setRules(String datasource, JsonNode rules) throws IOException, InterruptedException {
        post("/druid/coordinator/v1/rules/" + encode(datasource), rules);
    }

    public JsonNode rules(String datasource) throws IOException, InterruptedException {
        return get("/druid/coordinator/v1/rules/" + encode(datasource));
    }

    /** Submits an ingestion task; returns its id. */
    public String submitTask(JsonNode task) throws IOException, InterruptedException {
        return post("/druid/indexer/v1/task", task).path("task").asText();
    }

    /** Waits until the task succeeds; fails when it fails or the time runs out. */
    public void awaitTask(String taskId, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String state = "?";
        while (System.nanoTime() < deadline) {
            JsonNode status = get("/druid/indexer/v1/task/" + encode(taskId) + "/status").path("status");
            state = status.path("status").asText(status.path("statusCode").asText("?"));
            if (state.equals("SUCCESS")) {
                return;
            }
            if (state.equals("FAILED")) {
                throw new IOException("task " + taskId + " failed: " + status.path("errorMsg").asText(status.toString()));
            }
            Thread.sleep(1000);
        }
        throw new IOException("task " + taskId + " still " + state + " after " + timeout.toSeconds() + " s");
    }

    /** Rows of a Druid SQL query (objects keyed by column). */
    public List<JsonNode> sql(String query) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("query", query);
        List<JsonNode> rows = new ArrayList<>();
        post("/druid/v2/sql", body).forEach(rows::add);
        return rows;
    }

    /**
     * Repeats a SQL query until its rows pass {@code done} (for example once handed-off segments are loaded);
     * errors meanwhile (a datasource not there yet) count as not done.
     */
    public List<JsonNode> awaitSql(String query, Predicate<List<JsonNode>> done, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                List<JsonNode> rows = sql(query);
                if (done.test(rows)) {
                    return rows;
                }
                last = rows.toString();
            } catch (IOException e) {
                last = e.getMessage();
            }
            Thread.sleep(1000);
        }
        throw new IOException("'" + query + "' did not reach the expected answer within " + timeout.toSeconds()
                + " s; last: " + abbreviate(last));
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2)).GET().build());
    }

    private JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        HttpRequest.BodyPublisher publisher = body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body));
        return send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
                .header("Content-Type", "application/json").POST(publisher).build());
    }

    private JsonNode send(HttpRequest req) throws IOException, InterruptedException {
        HttpResponse<String> res = http.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (res.statusCode() / 100 != 2) {
            throw new IOException(req.method() + " " + req.uri().getPath() + " answered " + res.statusCode() + ": "
                    + abbreviate(res.body()));
        }
        return res.body().isBlank() ? JSON.nullNode() : JSON.readTree(res.body());
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String abbreviate(String s) {
        return s.length() <= 600 ? s : s.substring(0, 600) + "...";
    }
}
