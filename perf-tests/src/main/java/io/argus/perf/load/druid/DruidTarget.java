package io.argus.perf.load.druid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.cluster.druid.DruidInstall;
import io.argus.cluster.druid.DruidLayout;
import io.argus.cluster.druid.DruidProcess;
import io.argus.cluster.druid.DruidProcesses;
import io.argus.perf.harness.http.Http;
import io.argus.perf.harness.http.RequestSpec;
import io.argus.perf.load.target.LaunchPlan;
import io.argus.perf.load.target.ProcessSpec;
import io.argus.perf.load.target.Target;
import io.argus.perf.load.target.TargetEnv;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * An Apache Druid nano cluster, as in the source benchmark: ZooKeeper (from Druid's own jars, not
 * instrumented: it is not a Druid process), then coordinator-overlord, broker, historical,
 * middleManager and router, each in its own JVM on 127.0.0.1 with the scenario's agent, and the
 * middleManager's peons with it too. A load launch ingests the generated wikipedia data with
 * native batch ingestion (a peon does the work) and waits until the broker answers for all of it;
 * the load is the seed's SQL query through the router with a timestamp that rises per request.
 */
public final class DruidTarget implements Target {

    public static final String DATASOURCE = "wikipedia";
    public static final String QUERY = "SELECT * FROM wikipedia WHERE __time > MILLIS_TO_TIMESTAMP(%d) LIMIT 10";
    private static final Pattern ZOOKEEPER_STARTED = Pattern.compile("Started @(\\d+)ms");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** sql: the seed's query through the router; health: the coordinator-overlord's {@code /status/health}. */
    public static final List<String> ENDPOINTS = List.of("sql", "health");

    private final DruidInstall install;
    private final int rows;
    private final boolean health;
    private final PrintStream log;

    public DruidTarget(DruidInstall install, int rows, String endpoint, PrintStream log) {
        if (!ENDPOINTS.contains(endpoint)) {
            throw new IllegalArgumentException("unknown endpoint '" + endpoint + "'; expected one of " + ENDPOINTS);
        }
        this.install = install;
        this.rows = rows;
        this.health = endpoint.equals("health");
        this.log = log;
    }

    @Override
    public String name() {
        return "druid";
    }

    @Override
    public String description() {
        return "Apache Druid " + install.version() + " nano cluster (ZooKeeper without agent; coordinator-overlord, "
                + "broker, historical, middleManager + peons, router with it), " + rows
                + (health ? " (no data ingested); load: GET /status/health on the coordinator-overlord"
                : " generated wikipedia rows ingested with index_parallel; load: the seed's SQL query through the "
                + "router, timestamp +1 per request") + "; heaps: " + heaps();
    }

    private static String heaps() {
        StringBuilder b = new StringBuilder();
        for (String s : DruidProcesses.SERVICES) {
            b.append(b.length() == 0 ? "" : ", ").append(DruidProcesses.agentName(s)).append(' ')
                    .append(String.join(" ", DruidProcesses.heap(s)));
        }
        return b + ", peon " + String.join(" ", DruidProcesses.PEON_HEAP);
    }

    @Override
    public List<String> serviceNames() {
        List<String> names = new ArrayList<>();
        DruidProcesses.SERVICES.forEach(s -> names.add(DruidProcesses.agentName(s)));
        names.add("peon");
        return names;
    }

    @Override
    public List<String> tracedServices() {
        return health ? List.of(DruidProcesses.agentName("coordinator")) : List.of("router", "broker", "historical");
    }

    @Override
    public String tracedRootName() {
        return health ? "/status/health" : "/druid/v2/sql";
    }

    @Override
    public LaunchPlan plan(TargetEnv env) throws IOException {
        DruidLayout layout = new DruidLayout(env.workDir());
        List<String> peon = new ArrayList<>(DruidProcesses.peonJvm(layout));
        peon.addAll(env.agentOptions().apply("peon"));
        peon.addAll(env.extraOptions());
        layout.write(env.java(), peon);

        List<ProcessSpec> processes = new ArrayList<>();
        for (DruidProcess p : DruidProcesses.all(layout, install)) {
            // ZooKeeper (no agent) logs its admin server's 'Started @Nms' without Druid's 'Server - ' prefix
            processes.add(new ProcessSpec(p.name(), p.jvmOptions(), p.classPath(), p.mainAndArgs(),
                    RequestSpec.get(p.readiness().toString()),
                    p.druid() ? DruidProcesses.STARTED : ZOOKEEPER_STARTED, p.druid(),
                    Duration.ofSeconds(p.druid() ? 300 : 120), Map.of()));
        }
        String router = "http://127.0.0.1:" + layout.port("router");
        RequestSpec load = health
                ? RequestSpec.get("http://127.0.0.1:" + layout.port("coordinator") + "/status/health")
                : RequestSpec.postJsonRising(router + "/druid/v2/sql", "{\"query\":\"" + QUERY + "\"}",
                WikipediaData.START_MILLIS);
        RequestSpec smoke = RequestSpec.postJson(router + "/druid/v2/sql", "{\"query\":\"SELECT 1\"}");
        return new LaunchPlan(processes, load, smoke);
    }

    @Override
    public void afterReady(LaunchPlan plan, TargetEnv env) throws Exception {
        Http.Response smoke = Http.once(plan.smokeRequest(), Duration.ofSeconds(60));
        if (!plan.smokeRequest().matches(smoke.status())) {
            throw new IOException("SQL through the router failed: " + smoke.status() + " " + abbreviate(smoke.body()));
        }
        if (!env.load() || health) {
            return;
        }
        String router = "http://127.0.0.1:" + plan.loadRequest().uri().getPort();
        Path data = env.workDir().resolve("data");
        WikipediaData.write(data.resolve("wikipedia.json"), rows, 42);
        long start = System.nanoTime();
        String taskId = submit(router, WikipediaData.ingestionTask(DATASOURCE, data, "wikipedia.json"));
        awaitTask(router, taskId, Duration.ofMinutes(10));
        long ingested = System.nanoTime();
        awaitRows(router, Duration.ofMinutes(5));
        log.printf("[argus-perf] druid: ingested %d rows (task %s) in %.1f s, queryable %.1f s later%n", rows, taskId,
                (ingested - start) / 1e9, (System.nanoTime() - ingested) / 1e9);
        Http.Response first = Http.once(plan.loadRequest().first(), Duration.ofSeconds(60));
        if (!plan.loadRequest().matches(first.status()) || !first.body().contains("\"page\"")) {
            throw new IOException("the seed's query answered " + first.status() + ": " + abbreviate(first.body()));
        }
    }

    private static String submit(String router, String task) throws IOException, InterruptedException {
        Http.Response r = Http.once(RequestSpec.postJson(router + "/druid/indexer/v1/task", task), Duration.ofSeconds(60));
        if (r.status() != 200) {
            throw new IOException("the overlord refused the ingestion task: " + r.status() + " " + abbreviate(r.body()));
        }
        return JSON.readTree(r.body()).path("task").asText();
    }

    private static void awaitTask(String router, String taskId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String url = router + "/druid/indexer/v1/task/" + URLEncoder.encode(taskId, StandardCharsets.UTF_8) + "/status";
        String state = "?";
        while (System.nanoTime() < deadline) {
            Http.Response r = Http.get(url, Duration.ofSeconds(30));
            if (r.status() == 200) {
                JsonNode status = JSON.readTree(r.body()).path("status");
                state = status.path("status").asText(status.path("statusCode").asText("?"));
                if (state.equals("SUCCESS")) {
                    return;
                }
                if (state.equals("FAILED")) {
                    throw new IOException("ingestion task " + taskId + " failed: "
                            + abbreviate(status.path("errorMsg").asText(r.body())));
                }
            }
            Thread.sleep(1000);
        }
        throw new IOException("ingestion task " + taskId + " still " + state + " after " + timeout.toMinutes() + " min");
    }

    private void awaitRows(String router, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        RequestSpec count = RequestSpec.postJson(router + "/druid/v2/sql",
                "{\"query\":\"SELECT COUNT(*) AS n FROM " + DATASOURCE + "\"}");
        String last = "";
        while (System.nanoTime() < deadline) {
            Http.Response r = Http.once(count, Duration.ofSeconds(30));
            last = r.status() + " " + abbreviate(r.body());
            if (r.status() == 200) {
                JsonNode rowsNode = JSON.readTree(r.body());
                if (rowsNode.isArray() && !rowsNode.isEmpty() && rowsNode.get(0).path("n").asLong() == rows) {
                    return;
                }
            }
            Thread.sleep(1000);
        }
        throw new IOException("the broker did not answer for all " + rows + " rows within " + timeout.toMinutes()
                + " min; last answer: " + last);
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }
}
