package io.argus.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.cluster.process.ManagedProcess;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end-to-end test of the scale-out shape, through the fleet command as a user runs it ({@link FleetMain} in its
 * own JVM): a KRaft broker, a Druid cluster reading the four topics, ingest collectors A and B, a query collector,
 * and the sample services front and back with the real agent (front reports to A, back to B; 100% sampling).
 * Requests to front cross to back over HTTP; the joined traces, the HTTP metrics and the service and agent lists
 * are read back through the query collector's API, and the lag from request sent to trace queryable is measured.
 * Profile {@code druid} (150 to 305 s on two busy cores, most of it Kafka and Druid starting).
 */
class FleetDruidClusterIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofMinutes(15);
    private static final Duration QUERYABLE = Duration.ofMinutes(10);
    private static final int PROBES = 7;
    private static final int REQUESTS = 200;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path work;

    @Test
    void fleetServesJoinedTracesAndMetricsOfTwoServicesThroughTwoIngestCollectors() throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), FleetMain.class.getName(),
                "--work", work.toString(), "--rate", "0",
                "--agent", Path.of(System.getProperty("argus.agent.dir"), "argus-agent.jar").toString(),
                "--collector-class-path", System.getProperty("java.class.path"),
                "--service-class-path", serviceClassPath());
        ManagedProcess fleet = ManagedProcess.startIsolated("fleet", cmd, null, Map.of(),
                Path.of("target", "app-logs", "fleet.log"), Map.of("up", Pattern.compile("Ctrl-C stops everything")));
        List<String> printedUrls = new ArrayList<>();
        boolean stopped = false;
        try {
            long t0 = System.nanoTime();
            assertThat(fleet.awaitMatch("up", START.toMillis()))
                    .as("fleet up; last output:%n%s", fleet.describeTail(40)).isNotNull();
            System.out.printf("fleet up in %d s%n", (System.nanoTime() - t0) / 1_000_000_000);
            String out = String.join("\n", fleet.output());
            String query = printed(out, "query UI and API\\s+(\\S+)");
            String router = printed(out, "Druid router\\s+(\\S+)");
            String bootstrap = printed(out, "Kafka bootstrap\\s+(\\S+)");
            String ingestA = printed(out, "ingest collector A\\s+\\S+\\s+\\(http (\\S+)\\)");
            String ingestB = printed(out, "ingest collector B\\s+\\S+\\s+\\(http (\\S+)\\)");
            String front = printed(out, "service front\\s+(\\S+)/front/call");
            String back = printed(out, "service back\\s+(\\S+)/back/hello");
            for (String url : List.of(query, router, bootstrap, ingestA, ingestB, front, back)) {
                assertThat(url).contains("127.0.0.1:");
            }
            printedUrls.addAll(List.of(query, router, ingestA, ingestB, front, back));

            // every printed address answers
            assertThat(get(query).statusCode()).isEqualTo(200); // the web UI
            assertThat(get(query + "api/services").statusCode()).isEqualTo(200);
            assertThat(get(router + "/status/health").body()).isEqualTo("true");
            assertThat(get(ingestA + "metrics").statusCode()).isEqualTo(200);
            assertThat(get(ingestB + "metrics").statusCode()).isEqualTo(200);
            assertThat(get(back + "/back/hello").statusCode()).isEqualTo(200);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                assertThat(admin.listTopics().names().get()).contains("argus-spans", "argus-calls", "argus-jvm",
                        "argus-agents");
            }

            // the first trace waits for the supervisors' tasks to start reading
            Trace first = call(front);
            awaitTrace(query, first, QUERYABLE);
            List<Long> lagsMs = new ArrayList<>();
            for (int i = 0; i < PROBES; i++) {
                Trace t = call(front);
                awaitTrace(query, t, QUERYABLE);
                lagsMs.add((System.nanoTime() - t.sentNanos) / 1_000_000);
            }
            List<Trace> bulk = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                bulk.add(call(front));
            }
            awaitTrace(query, bulk.get(bulk.size() - 1), QUERYABLE);
            long bulkLagMs = (System.nanoTime() - bulk.get(bulk.size() - 1).sentNanos) / 1_000_000;
            for (Trace t : bulk) {
                assertJoined(getJson(query + "api/traces/" + t.traceId), t);
            }
            long requests = 1 + PROBES + REQUESTS;
            Collections.sort(lagsMs);
            System.out.printf("end-to-end lag, request sent -> whole trace queryable through the query collector:"
                    + " median %d ms, min %d ms, max %d ms over %d sequential requests; last of a burst of %d:"
                    + " %d ms%n", lagsMs.get(lagsMs.size() / 2), lagsMs.get(0), lagsMs.get(lagsMs.size() - 1),
                    PROBES, REQUESTS, bulkLagMs);

            // the HTTP metrics count every request, on both sides of the call
            awaitJson(query + "api/metrics/http?service=front&kind=server",
                    rows -> count(rows, "/front/call") == requests, "front's server calls = " + requests);
            awaitJson(query + "api/metrics/http?service=front&kind=client",
                    rows -> count(rows, null) == requests, "front's client calls = " + requests);
            awaitJson(query + "api/metrics/http?service=back&kind=server",
                    rows -> count(rows, "/back/hello") == requests + 1, "back's server calls = " + (requests + 1));

            JsonNode services = getJson(query + "api/services");
            Set<String> names = new HashSet<>();
            services.forEach(s -> names.add(s.path("service").asText()));
            assertThat(names).containsExactlyInAnyOrder("front", "back");
            awaitJson(query + "api/agents", agents -> connectedServices(agents).containsAll(List.of("front", "back")),
                    "both agents listed as connected");
            // each agent reports to its own ingest collector
            assertThat(connectedServices(getJson(ingestA + "api/agents"))).containsExactly("front");
            assertThat(connectedServices(getJson(ingestB + "api/agents"))).containsExactly("back");

            // SIGTERM to the fleet's JVM alone, as Ctrl-C: its shutdown hook stops every part
            List<ProcessHandle> parts = fleet.process().descendants().toList();
            assertThat(parts.size()).as("Kafka, 6 Druid processes, 3 collectors, 2 services")
                    .isGreaterThanOrEqualTo(12);
            fleet.process().destroy();
            assertThat(fleet.waitFor(Duration.ofMinutes(3))).as("the fleet exits after SIGTERM").isTrue();
            stopped = true;
            for (ProcessHandle part : parts) {
                part.onExit().get(1, java.util.concurrent.TimeUnit.MINUTES);
            }
            for (String url : printedUrls) {
                assertThatThrownBy(() -> get(url)).as("%s after the fleet stopped", url)
                        .isInstanceOf(IOException.class);
            }
        } finally {
            if (!stopped) {
                fleet.stop(120_000);
            }
        }
    }

    private record Trace(String traceId, String parentSpanId, long sentNanos) {
    }

    /** GET /front/call carrying a W3C traceparent, so that the trace id is known before it is stored. */
    private Trace call(String front) throws Exception {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        String traceId = String.format("%016x%016x", r.nextLong(), r.nextLong());
        String parent = String.format("%016x", r.nextLong() | 1);
        long sent = System.nanoTime();
        HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(front + "/front/call"))
                .header("traceparent", "00-" + traceId + "-" + parent + "-01").timeout(Duration.ofSeconds(30))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.body()).contains("hello from back");
        return new Trace(traceId, parent, sent);
    }

    private void awaitTrace(String query, Trace t, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = get(query + "api/traces/" + t.traceId);
            if (r.statusCode() == 200 && JSON.readTree(r.body()).path("spans").size() >= 3) {
                return;
            }
            last = r.statusCode() + " " + r.body();
            Thread.sleep(100);
        }
        throw new AssertionError("trace " + t.traceId + " not queryable within " + timeout + "; last: " + last);
    }

    /** front SERVER (child of the caller's span) -> front CLIENT -> back SERVER, one trace, two services. */
    private static void assertJoined(JsonNode trace, Trace sent) {
        assertThat(trace.path("traceId").asText()).isEqualTo(sent.traceId);
        JsonNode spans = trace.path("spans");
        assertThat(spans).as("spans of %s: %s", sent.traceId, spans).hasSize(3);
        Map<String, JsonNode> byKey = new HashMap<>();
        spans.forEach(s -> byKey.put(s.path("service").asText() + " " + s.path("kind").asText(), s));
        JsonNode frontServer = byKey.get("front SERVER");
        JsonNode frontClient = byKey.get("front CLIENT");
        JsonNode backServer = byKey.get("back SERVER");
        assertThat(frontServer).as("front's server span in %s", spans).isNotNull();
        assertThat(frontClient).as("front's client span in %s", spans).isNotNull();
        assertThat(backServer).as("back's server span in %s", spans).isNotNull();
        assertThat(frontServer.path("parentSpanId").asText()).isEqualTo(sent.parentSpanId);
        assertThat(frontClient.path("parentSpanId").asText()).isEqualTo(frontServer.path("spanId").asText());
        assertThat(backServer.path("parentSpanId").asText()).isEqualTo(frontClient.path("spanId").asText());
        assertThat(backServer.path("name").asText()).contains("/back/hello");
    }

    private static long count(JsonNode rows, String target) {
        long n = 0;
        for (JsonNode m : rows) {
            if (target == null || m.path("target").asText().equals(target)) {
                n += m.path("count").asLong();
            }
        }
        return n;
    }

    private static Set<String> connectedServices(JsonNode agents) {
        Set<String> out = new LinkedHashSet<>();
        agents.forEach(a -> {
            if (a.path("connected").asBoolean()) {
                out.add(a.path("service").asText());
            }
        });
        return out;
    }

    private void awaitJson(String url, Predicate<JsonNode> done, String what) throws Exception {
        long deadline = System.nanoTime() + QUERYABLE.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = getJson(url);
            if (done.test(last)) {
                return;
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("timed out waiting for " + what + "; last " + url + ": " + last);
    }

    private JsonNode getJson(String url) throws Exception {
        HttpResponse<String> r = get(url);
        assertThat(r.statusCode()).as("GET %s: %s", url, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String printed(String out, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(out);
        assertThat(m.find()).as("'%s' in the fleet's output:%n%s", pattern, out).isTrue();
        return m.group(1);
    }

    /** The sample service's jar (perf-tests), Jetty 12 and SLF4J, as the distribution's perf/lib holds them. */
    static String serviceClassPath() throws URISyntaxException {
        Set<String> entries = new LinkedHashSet<>();
        for (Class<?> c : new Class<?>[] {io.argus.perf.sample.SampleService.class,
                org.eclipse.jetty.server.Server.class, org.eclipse.jetty.http.HttpField.class,
                org.eclipse.jetty.io.EndPoint.class, org.eclipse.jetty.util.Callback.class,
                org.slf4j.Logger.class}) {
            entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        return entries.stream().collect(Collectors.joining(File.pathSeparator));
    }
}
