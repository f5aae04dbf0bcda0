package io.argus.cluster.druid;

import io.argus.cluster.process.ManagedProcess;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Druid processes ({@link DruidProcesses}) a scale-out deployment needs for Kafka ingestion and SQL queries: ZooKeeper, then
 * coordinator-overlord, broker, historical, middleManager (whose peons run the Kafka and batch ingestion tasks) and
 * router, each in its own JVM on 127.0.0.1 with free ports, Derby metadata and local deep storage under the work
 * folder, and the extensions {@value #KAFKA_INDEXING} and {@value #DATASKETCHES} loaded. Heaps follow Druid's
 * nano-quickstart (about 2.2 GB for the services plus 0.5 GB per running task) so that the whole cluster fits a
 * 2-core machine.
 *
 * <pre>{@code
 * try (DruidCluster druid = DruidCluster.start(DruidCluster.install(), workDir, 6, System.out)) {
 *     druid.routerUrl(); // SQL, and the overlord and coordinator APIs through the router
 * }
 * }</pre>
 */
public final class DruidCluster implements AutoCloseable {
    public static final String KAFKA_INDEXING = "druid-kafka-indexing-service";
    public static final String DATASKETCHES = "druid-datasketches";
    /** Four Kafka supervisors with one task each, room for each to hand over to its next task, and a batch task. */
    public static final int DEFAULT_WORKER_CAPACITY = 6;
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private final DruidLayout layout;
    private final List<ManagedProcess> processes;
    private final DruidApi api;

    private DruidCluster(DruidLayout layout, List<ManagedProcess> processes) {
        this.layout = layout;
        this.processes = processes;
        this.api = new DruidApi(URI.create(routerUrl()));
    }

    /** Druid at the pinned version with both extensions, cached like the benchmarks' (fetched on first use). */
    public static DruidInstall install() {
        String version = DruidInstall.pinnedVersion();
        return new DruidInstall(DruidInstall.defaultHome(version), version, List.of(KAFKA_INDEXING, DATASKETCHES));
    }

    /**
     * Fetches Druid if needed, writes the configuration under {@code workDir} and starts every process; returns once
     * each answers its health check.
     *
     * @param workerCapacity how many ingestion tasks may run at once (each is a peon JVM)
     */
    public static DruidCluster start(DruidInstall install, Path workDir, int workerCapacity, PrintStream log)
            throws IOException, InterruptedException {
        if (!install.extensions().containsAll(List.of(KAFKA_INDEXING, DATASKETCHES))) {
            throw new IllegalArgumentException("the install must carry " + KAFKA_INDEXING + " and " + DATASKETCHES);
        }
        install.ensure(log);
        DruidLayout layout = new DruidLayout(workDir);
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        layout.write(java, DruidProcesses.peonJvm(layout), install.extensionsDir(), install.extensions(),
                workerCapacity);
        List<DruidProcess> defined = DruidProcesses.all(layout, install);
        List<ManagedProcess> started = new ArrayList<>();
        try {
            // ZooKeeper first and answering; then the Druid processes start together
            started.add(launch(defined.get(0), java, layout));
            awaitHealthy(started.get(0), defined.get(0).readiness());
            for (DruidProcess p : defined.subList(1, defined.size())) {
                started.add(launch(p, java, layout));
            }
            for (int i = 1; i < defined.size(); i++) {
                awaitHealthy(started.get(i), defined.get(i).readiness());
            }
            log.println("[argus] Druid " + install.version() + " up: router http://127.0.0.1:" + layout.port("router")
                    + ", work folder " + layout.root());
            return new DruidCluster(layout, started);
        } catch (IOException | InterruptedException | RuntimeException e) {
            stopAll(started);
            throw e;
        }
    }

    private static ManagedProcess launch(DruidProcess p, Path java, DruidLayout layout) throws IOException {
        return ManagedProcess.startIsolated(p.name(), p.command(java.toString()), layout.root(), Map.of(),
                layout.root().resolve("log").resolve(p.name() + ".log"), Map.of());
    }

    private static void awaitHealthy(ManagedProcess p, URI url) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IOException(p.name() + " exited while starting; see " + p.log() + ":\n"
                        + p.describeTail(30));
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url)
                        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(500);
        }
        throw new IOException(p.name() + " did not answer " + url + " within " + START_TIMEOUT.toMinutes()
                + " min (last: " + last + "); see " + p.log());
    }

    /** The router: SQL, and the overlord's and coordinator's APIs through its management proxy. */
    public String routerUrl() {
        return "http://127.0.0.1:" + layout.port("router");
    }

    public String brokerUrl() {
        return "http://127.0.0.1:" + layout.port("broker");
    }

    /** The coordinator, which is also the overlord here. */
    public String coordinatorUrl() {
        return "http://127.0.0.1:" + layout.port("coordinator");
    }

    /** The cluster's HTTP API (through the router). */
    public DruidApi api() {
        return api;
    }

    public Path workDir() {
        return layout.root();
    }

    /** Stops every process, router first and ZooKeeper last. */
    @Override
    public void close() {
        stopAll(processes);
    }

    private static void stopAll(List<ManagedProcess> processes) {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).stop(10_000);
        }
    }
}
