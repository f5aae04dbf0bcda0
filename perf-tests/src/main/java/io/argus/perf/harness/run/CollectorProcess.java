package io.argus.perf.harness.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.perf.harness.http.Http;
import io.argus.perf.harness.http.RequestSpec;
import io.argus.cluster.process.ManagedProcess;
import io.argus.perf.harness.proc.ProcStats;
import io.argus.perf.harness.proc.Taskset;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An Argus collector on ports it chooses itself (port 0, read back from its start line) of
 * 127.0.0.1 (its default bind), with a fresh data folder: the distribution's
 * {@code collector/bin/argus-collector}, or {@code io.argus.collector.CollectorMain} from a class path.
 */
public final class CollectorProcess implements AutoCloseable {

    static final Pattern STARTED = Pattern.compile(
            "Argus collector started: ingest ([^\\s,]+):(\\d+), http http://([^/\\s]+):(\\d+)/");
    /** The OTLP/HTTP part of the same line, when the receiver is on. */
    static final Pattern OTLP = Pattern.compile("otlp (https?)://([^/\\s]+):(\\d+)/v1/");
    static final Pattern OTLP_GRPC = Pattern.compile("otlp/grpc ([^\\s,]+):(\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ManagedProcess process;
    private final int ingestPort;
    private final int httpPort;
    /** Base URL of the OTLP/HTTP receiver ({@code http://127.0.0.1:port}), or null when it is off. */
    private final String otlpEndpoint;
    private final String otlpGrpcEndpoint;
    private final Path dataDir;

    private CollectorProcess(ManagedProcess process, int ingestPort, int httpPort, String otlpEndpoint,
                             String otlpGrpcEndpoint, Path dataDir) {
        this.process = process;
        this.ingestPort = ingestPort;
        this.httpPort = httpPort;
        this.otlpEndpoint = otlpEndpoint;
        this.otlpGrpcEndpoint = otlpGrpcEndpoint;
        this.dataDir = dataDir;
    }

    /**
     * How to start the collector, without its port and data arguments.
     *
     * @param isolated without this JVM's agent settings in its environment (see {@link ManagedProcess#startIsolated})
     */
    public record Launch(List<String> command, Map<String, String> env, boolean isolated) {

        /** The distribution's script, run with the JDK in {@code javaHome} (it needs 17+). */
        public static Launch script(Path script, Path javaHome) {
            return new Launch(List.of(script.toString()), Map.of("JAVA_HOME", javaHome.toString()), false);
        }

        /** {@code io.argus.collector.CollectorMain} from {@code classpath}. */
        public static Launch classPath(Path java, String classpath) {
            return new Launch(List.of(java.toString(), "-Xmx1g", "-cp", classpath, "io.argus.collector.CollectorMain"),
                    Map.of(), false);
        }

        /** The same launch with {@code prefix} (e.g. {@code taskset -c 1}) before its command. */
        public Launch prefixed(List<String> prefix) {
            List<String> cmd = new ArrayList<>(prefix);
            cmd.addAll(command);
            return new Launch(cmd, env, isolated);
        }

        public Launch isolatedOn(int cpu) {
            List<String> cmd = new ArrayList<>();
            if (cpu >= 0) {
                cmd.addAll(Taskset.on(cpu));
            }
            cmd.addAll(command);
            return new Launch(cmd, env, true);
        }
    }

    /**
     * Starts a collector and waits for its "Argus collector started" line and a 200 from
     * {@code GET /api/services}.
     */
    public static CollectorProcess start(Launch launch, Path dataDir, Path log, Duration timeout)
            throws IOException, InterruptedException {
        return start(launch, dataDir, log, timeout, false);
    }

    /**
     * @param otlp with the OTLP/HTTP and OTLP/gRPC receivers on loopback ports that were free a moment before (the
     *             collector's command line has no "any free port" for them); otherwise they are off
     */
    public static CollectorProcess start(Launch launch, Path dataDir, Path log, Duration timeout, boolean otlp)
            throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        List<String> cmd = new ArrayList<>(launch.command());
        cmd.addAll(List.of("--ingest-port", "0", "--http-port", "0", "--otlp-http-port",
                otlp ? Integer.toString(freeLoopbackPort()) : "0", "--otlp-grpc-port",
                otlp ? Integer.toString(freeLoopbackPort()) : "0", "--data-dir", dataDir.toString()));
        ManagedProcess p = launch.isolated()
                ? ManagedProcess.startIsolated("collector", cmd, dataDir, launch.env(), log, Map.of("ready", STARTED))
                : ManagedProcess.start("collector", cmd, dataDir, launch.env(), log, Map.of("ready", STARTED));
        try {
            String line = p.awaitMatch("ready", timeout.toMillis());
            if (line == null) {
                throw new IOException("the collector did not print 'Argus collector started' within "
                        + timeout.toSeconds() + " s" + (p.isAlive() ? "" : " (it exited)") + "; its last output ("
                        + log + "):" + System.lineSeparator() + p.describeTail(15));
            }
            Matcher m = STARTED.matcher(line);
            m.find();
            CollectorProcess c = new CollectorProcess(p, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(4)),
                    otlpEndpoint(line), otlpGrpcEndpoint(line), dataDir);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (Http.probe(RequestSpec.get(c.api("/api/services")), 1000) != 200) {
                if (System.nanoTime() > deadline || !p.isAlive()) {
                    throw new IOException("the collector's GET /api/services never answered 200 (see " + log + ")");
                }
                Thread.sleep(50);
            }
            return c;
        } catch (IOException | InterruptedException | RuntimeException e) {
            p.stop(10_000);
            throw e;
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /** {@code http://host:port} of the OTLP/HTTP receiver named in the start line, or null. */
    static String otlpEndpoint(String startLine) {
        Matcher m = OTLP.matcher(startLine);
        return m.find() ? m.group(1) + "://" + m.group(2) + ":" + m.group(3) : null;
    }

    /** {@code http://host:port} of the OTLP/gRPC receiver named in the start line, or null. */
    static String otlpGrpcEndpoint(String startLine) {
        Matcher m = OTLP_GRPC.matcher(startLine);
        return m.find() ? (startLine.contains("otlp https://") ? "https://" : "http://") + m.group(1) + ":"
                + m.group(2) : null;
    }

    /** Base URL of the OTLP/gRPC receiver for {@code otel.exporter.otlp.endpoint}; null when it is off. */
    public String otlpGrpcEndpoint() {
        return otlpGrpcEndpoint;
    }

    /** Base URL for OpenTelemetry's {@code otel.exporter.otlp.endpoint}; null when the receiver is off. */
    public String otlpEndpoint() {
        return otlpEndpoint;
    }

    public String ingestAddress() {
        return "127.0.0.1:" + ingestPort;
    }

    public int ingestPort() {
        return ingestPort;
    }

    public int httpPort() {
        return httpPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    public String api(String pathAndQuery) {
        return "http://127.0.0.1:" + httpPort + pathAndQuery;
    }

    /** The pid of the collector's JVM (the script may exec it or run it as a child). */
    public long jvmPid() {
        return process.process().descendants()
                .filter(h -> h.info().command().map(c -> c.endsWith("java")).orElse(false))
                .map(ProcessHandle::pid).findFirst().orElse(process.pid());
    }

    public double cpuMillis() {
        return ProcStats.cpuMillis(jvmPid());
    }

    /** Names from GET /api/services (a JSON array of strings or of objects with a name). */
    public List<String> services() throws IOException, InterruptedException {
        Http.Response r = Http.get(api("/api/services"), Duration.ofSeconds(30));
        List<String> out = new ArrayList<>();
        if (r.status() != 200) {
            throw new IOException("GET /api/services answered " + r.status());
        }
        JsonNode root = JSON.readTree(r.body());
        JsonNode list = root.isArray() ? root : firstArray(root);
        if (list != null) {
            for (JsonNode n : list) {
                out.add(n.isTextual() ? n.asText() : n.path("name").asText(n.path("service").asText(n.toString())));
            }
        }
        return out;
    }

    /**
     * How many traces {@code GET /api/traces?service=S&limit=L} returns: the length of the array
     * (the answer itself or its first array field), or a count/total field when there is one.
     */
    public long traceCount(String service, int limit) throws IOException, InterruptedException {
        Http.Response r = Http.get(api(tracesQuery(service, limit)), Duration.ofSeconds(120));
        if (r.status() != 200) {
            throw new IOException("GET " + tracesQuery(service, limit) + " answered " + r.status() + ": "
                    + r.body().substring(0, Math.min(200, r.body().length())));
        }
        return countTraces(JSON.readTree(r.body()));
    }

    /**
     * Whether the collector stored the trace ({@code GET /api/traces/{traceId}}: 200), or not (404).
     *
     * @throws IOException on any other answer
     */
    public boolean hasTrace(String traceId) throws IOException, InterruptedException {
        Http.Response r = Http.get(api("/api/traces/" + traceId), Duration.ofSeconds(30));
        if (r.status() == 200 || r.status() == 404) {
            return r.status() == 200;
        }
        throw new IOException("GET /api/traces/" + traceId + " answered " + r.status() + ": "
                + r.body().substring(0, Math.min(200, r.body().length())));
    }

    /** The newest trace of the service: [traceId, spanCount, services...] from /api/traces and /api/traces/{id}, or null. */
    public List<String> newestTrace(String service) throws IOException, InterruptedException {
        Http.Response r = Http.get(api(tracesQuery(service, 1)), Duration.ofSeconds(30));
        JsonNode list = JSON.readTree(r.body());
        if (r.status() != 200 || !list.isArray() || list.isEmpty()) {
            return null;
        }
        String id = list.get(0).path("traceId").asText(null);
        if (id == null) {
            return null;
        }
        Http.Response d = Http.get(api("/api/traces/" + id), Duration.ofSeconds(30));
        if (d.status() != 200) {
            return null;
        }
        JsonNode spans = JSON.readTree(d.body()).path("spans");
        java.util.Set<String> services = new java.util.TreeSet<>();
        for (JsonNode span : spans) {
            services.add(span.path("service").asText());
        }
        List<String> out = new ArrayList<>(List.of(id, Integer.toString(spans.size())));
        out.addAll(services);
        return out;
    }

    /**
     * Finds, among the newest traces rooted in {@code rootService}, the newest whose root span name
     * contains {@code rootName} and checks its shape: one root (a server span of
     * {@code services.get(0)}), every parent id resolving inside the trace, and for each next
     * service a server span whose parent is a client span of the service before it.
     *
     * @return a one-line description of the trace that passed
     * @throws IOException saying what is missing, for the newest matching trace
     */
    public String checkTraceChain(List<String> services, String rootName, int scan)
            throws IOException, InterruptedException {
        String root = services.get(0);
        Http.Response r = Http.get(api(tracesQuery(root, scan)), Duration.ofSeconds(60));
        JsonNode list = JSON.readTree(r.body());
        if (r.status() != 200 || !list.isArray()) {
            throw new IOException("GET " + tracesQuery(root, scan) + " answered " + r.status());
        }
        String firstProblem = null;
        int candidates = 0;
        for (JsonNode t : list) {
            if (!t.path("rootName").asText("").contains(rootName)) {
                continue;
            }
            candidates++;
            String id = t.path("traceId").asText();
            Http.Response d = Http.get(api("/api/traces/" + id), Duration.ofSeconds(30));
            if (d.status() != 200) {
                continue;
            }
            String problem = TraceChain.problem(JSON.readTree(d.body()).path("spans"), services);
            if (problem == null) {
                return "trace " + id + " (" + t.path("rootName").asText() + ", " + t.path("spanCount").asInt()
                        + " spans) runs " + String.join(" -> ", services) + " with correct parent links";
            }
            if (firstProblem == null) {
                firstProblem = "trace " + id + ": " + problem;
            }
            if (candidates >= 20) {
                break;
            }
        }
        throw new IOException(candidates == 0
                ? "no trace of " + root + " rooted in a span named like '" + rootName + "' among the newest " + scan
                : firstProblem + " (and none of the " + candidates + " newest matching traces had the full chain)");
    }

    /**
     * The collector's own counters from GET /metrics (Prometheus text), summed over label sets:
     * e.g. {@code argus_collector_spans_stored_total}.
     */
    public Map<String, Double> prometheus() throws IOException, InterruptedException {
        Http.Response r = Http.get(api("/metrics"), Duration.ofSeconds(30));
        if (r.status() != 200) {
            throw new IOException("GET /metrics answered " + r.status());
        }
        return parsePrometheus(r.body());
    }

    static Map<String, Double> parsePrometheus(String text) {
        Map<String, Double> out = new java.util.TreeMap<>();
        for (String line : text.split("\\R")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            if (space <= 0) {
                continue;
            }
            String name = brace > 0 && brace < space ? line.substring(0, brace) : line.substring(0, space).trim();
            try {
                out.merge(name, Double.parseDouble(line.substring(space + 1).trim()), Double::sum);
            } catch (NumberFormatException ignored) {
                // not a sample line
            }
        }
        return out;
    }

    /**
     * The collector's view of an agent once it disconnected (its last heartbeat is in): spans the
     * agent reports sent and dropped, spans the collector received, and spans it stored.
     */
    public Map<String, Long> agentSpans(String service) throws InterruptedException {
        Map<String, Long> out = new LinkedHashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        JsonNode agent = null;
        while (System.nanoTime() < deadline) {
            try {
                agent = null;
                Http.Response r = Http.get(api("/api/agents"), Duration.ofSeconds(60));
                if (r.status() != 200) {
                    throw new IOException("GET /api/agents answered " + r.status());
                }
                for (JsonNode a : JSON.readTree(r.body())) {
                    if (service.equals(a.path("service").asText())) {
                        agent = a;
                    }
                }
                if (agent != null && !agent.path("connected").asBoolean(true)) {
                    break;
                }
            } catch (IOException e) {
                // try again
            }
            Thread.sleep(200);
        }
        if (agent != null) {
            out.put("collector.agentSentSpans", agent.path("sentSpans").asLong());
            out.put("collector.agentDroppedSpans", agent.path("droppedSpans").asLong());
            out.put("collector.spansReceived", agent.path("spansReceived").asLong());
        }
        try {
            Double stored = prometheus().get("argus_collector_spans_stored_total");
            if (stored != null) {
                out.put("collector.spansStored", stored.longValue());
            }
        } catch (IOException e) {
            // not available
        }
        return out;
    }

    public static String tracesQuery(String service, int limit) {
        return "/api/traces?service=" + service + "&limit=" + limit;
    }

    static long countTraces(JsonNode root) {
        if (root.isArray()) {
            return root.size();
        }
        for (String field : List.of("total", "count", "totalCount")) {
            if (root.has(field) && root.get(field).isNumber()) {
                return root.get(field).asLong();
            }
        }
        JsonNode list = firstArray(root);
        if (list == null) {
            throw new IllegalStateException("no trace list in the answer: " + root.toString().substring(0,
                    Math.min(200, root.toString().length())));
        }
        return list.size();
    }

    private static JsonNode firstArray(JsonNode root) {
        for (Iterator<JsonNode> it = root.elements(); it.hasNext(); ) {
            JsonNode n = it.next();
            if (n.isArray()) {
                return n;
            }
        }
        return null;
    }

    @Override
    public void close() {
        process.stop(10_000);
    }
}
