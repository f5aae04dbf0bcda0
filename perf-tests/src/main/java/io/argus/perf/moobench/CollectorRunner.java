package io.argus.perf.moobench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A real Argus collector for the T+I+C+W runs: {@code collector/bin/argus-collector} of the
 * distribution (or {@code io.argus.collector.CollectorMain} from a class path) on free loopback
 * ports, with a fresh data folder, optionally pinned to the other core.
 */
final class CollectorRunner implements AutoCloseable {

    static final Pattern STARTED = Pattern.compile(
            "Argus collector started: ingest ([^\\s,]+):(\\d+), http http://([^/\\s]+):(\\d+)/");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final ChildProcesses.Child child;
    private final Path dataDir;
    private final int ingestPort;
    private final int httpPort;

    private CollectorRunner(ChildProcesses.Child child, Path dataDir, int ingestPort, int httpPort) {
        this.child = child;
        this.dataDir = dataDir;
        this.ingestPort = ingestPort;
        this.httpPort = httpPort;
    }

    /**
     * @param script    the distribution's collector script, or null
     * @param classpath the collector's class path when there is no script
     * @param pinCpu    the core for the collector, or -1
     */
    static CollectorRunner start(Path script, String classpath, Path java, Path dataDir, Path log, int pinCpu)
            throws IOException, InterruptedException {
        Files.createDirectories(dataDir);
        List<String> cmd = new ArrayList<>();
        if (pinCpu >= 0) {
            cmd.addAll(List.of("taskset", "-c", Integer.toString(pinCpu)));
        }
        Map<String, String> env = new LinkedHashMap<>();
        if (script != null) {
            cmd.add(script.toString());
            Path javaHome = java.toAbsolutePath().getParent().getParent();
            env.put("JAVA_HOME", javaHome.toString());
        } else {
            cmd.addAll(List.of(java.toString(), "-Xmx1g", "-cp", classpath, "io.argus.collector.CollectorMain"));
        }
        cmd.addAll(List.of("--ingest-port", "0", "--http-port", "0", "--otlp-http-port", "0", "--data-dir",
                dataDir.toString()));
        ChildProcesses.Child child = ChildProcesses.start(cmd, log, env);
        String line = child.await(l -> STARTED.matcher(l).find(), 60_000);
        if (line == null) {
            child.stop(5000);
            throw new IOException("the collector did not start within 60 s; its output (" + log + "):\n" + child.tail(20));
        }
        Matcher m = STARTED.matcher(line);
        m.find();
        return new CollectorRunner(child, dataDir, Integer.parseInt(m.group(2)), Integer.parseInt(m.group(4)));
    }

    String ingestAddress() {
        return "127.0.0.1:" + ingestPort;
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + " answered " + r.statusCode());
        }
        return JSON.readTree(r.body());
    }

    /**
     * The collector's view of the benchmark agent once it disconnected (its last heartbeat is in):
     * spans the agent reports sent and dropped, spans the collector received, and spans stored.
     */
    Map<String, Long> agentView(String service) throws InterruptedException {
        Map<String, Long> out = new LinkedHashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        JsonNode agent = null;
        while (System.nanoTime() < deadline) {
            try {
                agent = null;
                for (JsonNode a : get("/api/agents")) {
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
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            for (String line : r.body().split("\\R")) {
                if (line.startsWith("argus_collector_spans_stored_total")) {
                    out.merge("collector.spansStored", (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Long::sum);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not available
        }
        return out;
    }

    @Override
    public void close() throws InterruptedException {
        child.stop(15_000);
        deleteRecursively(dataDir);
    }

    static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // best effort
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
