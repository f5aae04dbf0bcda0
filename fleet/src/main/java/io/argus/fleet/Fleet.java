package io.argus.fleet;

import io.argus.collector.storage.druid.DruidDatasources;
import io.argus.cluster.druid.DruidCluster;
import io.argus.fleet.druid.DruidIngestion;
import io.argus.fleet.druid.DruidSpecs;
import io.argus.fleet.druid.RetentionRules;
import io.argus.cluster.kafka.KafkaBroker;
import io.argus.cluster.kafka.KafkaInstall;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A local scale-out fleet on 127.0.0.1: a Kafka broker (KRaft), a Druid cluster with a Kafka supervisor and
 * retention rules per datasource, two ingest collectors ({@code --storage kafka}) A and B, a query collector
 * ({@code --query druid}), and the sample services {@code back} and {@code front} with the agent. front's agent
 * names A then B, back's B then A: each reports to its own collector and fails over to the other. Every part is
 * its own process; {@link #close()} stops them in reverse order.
 */
public final class Fleet implements AutoCloseable {
    static final String COLLECTOR_MAIN = "io.argus.collector.CollectorMain";
    static final String SERVICE_MAIN = "io.argus.perf.sample.SampleService";
    private static final int PARTITIONS = 3;
    private static final Pattern INGEST_READY =
            Pattern.compile("Argus collector started: ingest [^:]+:(\\d+), http (http://\\S+), ");
    private static final Pattern QUERY_READY = Pattern.compile("Argus collector started: http (http://\\S+), ");
    private static final Pattern SERVICE_READY = Pattern.compile("SampleService \\S+ Started @\\d+ms port=(\\d+)");

    private final List<AutoCloseable> started = new ArrayList<>();
    private KafkaBroker kafka;
    private DruidCluster druid;
    private final List<FleetProcess> ingest = new ArrayList<>();
    private FleetProcess query;
    private FleetProcess front;
    private FleetProcess back;
    private FleetTraffic traffic;

    private Fleet() {
    }

    /** Starts every part; on failure stops what was started and rethrows. */
    public static Fleet start(FleetOptions o, PrintStream log) throws Exception {
        Fleet f = new Fleet();
        try {
            f.startAll(o, log);
            return f;
        } catch (Exception | Error e) {
            f.close();
            throw e;
        }
    }

    private void startAll(FleetOptions o, PrintStream log) throws Exception {
        Path logs = o.work().resolve("log");
        Files.createDirectories(logs);
        DruidSpecs specs = new DruidSpecs(new DruidDatasources(o.prefix()));
        log.println("[fleet] Kafka broker...");
        kafka = KafkaBroker.start(KafkaInstall.pinned(), o.work().resolve("kafka"));
        started.add(kafka);
        kafka.createTopics(PARTITIONS, specs.all().toArray(String[]::new));

        log.println("[fleet] Druid cluster...");
        druid = DruidCluster.start(DruidCluster.install(), o.work().resolve("druid"),
                DruidCluster.DEFAULT_WORKER_CAPACITY, log);
        started.add(druid);
        RetentionRules.defaults().apply(druid.api(), specs.datasources());
        new DruidIngestion(druid.api(), specs).startSupervisors(kafka.bootstrapServers());

        for (String name : List.of("ingest-a", "ingest-b")) {
            log.println("[fleet] " + name + "...");
            FleetProcess c = FleetProcess.start(name, logs, List.of("-Xmx256m"), o.collectorClassPath(),
                    COLLECTOR_MAIN, List.of("--storage", "kafka", "--kafka-bootstrap", kafka.bootstrapServers(),
                            "--kafka-topic-prefix", o.prefix(), "--bind", "127.0.0.1", "--ingest-port", "0",
                            "--http-port", "0", "--otlp-http-port", "0", "--otlp-grpc-port", "0", "--data-dir",
                            o.work().resolve(name).toString()), INGEST_READY);
            started.add(c::stop);
            ingest.add(c);
        }
        log.println("[fleet] query collector...");
        List<String> queryArgs = new ArrayList<>(List.of("--query", "druid", "--druid-url", druid.routerUrl(),
                "--druid-datasource-prefix", o.prefix(), "--bind", "127.0.0.1", "--http-port",
                Integer.toString(o.queryHttpPort()), "--data-dir", o.work().resolve("query").toString()));
        if (o.alertRules() != null) {
            queryArgs.addAll(List.of("--alert-rules", o.alertRules().toString()));
        }
        query = FleetProcess.start("query", logs, List.of("-Xmx256m"), o.collectorClassPath(), COLLECTOR_MAIN,
                queryArgs, QUERY_READY);
        started.add(query::stop);

        log.println("[fleet] sample services back and front...");
        back = FleetProcess.start("back", logs, agentArgs(o, "back", ingestAddress(1) + "," + ingestAddress(0)),
                o.serviceClassPath(), SERVICE_MAIN, List.of("--name", "back", "--port", "0"), SERVICE_READY);
        started.add(back::stop);
        front = FleetProcess.start("front", logs, agentArgs(o, "front", ingestAddress(0) + "," + ingestAddress(1)),
                o.serviceClassPath(), SERVICE_MAIN, List.of("--name", "front", "--port", "0", "--downstream",
                        serviceUrl(back)), SERVICE_READY);
        started.add(front::stop);
        if (o.requestsPerSecond() > 0) {
            traffic = new FleetTraffic(URI.create(frontUrl() + "/front/call"), o.requestsPerSecond());
            started.add(traffic);
        }
    }

    private static List<String> agentArgs(FleetOptions o, String service, String collectors) {
        return List.of("-Xmx256m", "-javaagent:" + o.agentJar(), "-Dargus.service.name=" + service,
                "-Dargus.collector.address=" + collectors, "-Dargus.tracing.samplingRate=100");
    }

    private static String serviceUrl(FleetProcess service) {
        return "http://127.0.0.1:" + service.ready.get(0);
    }

    /** Ingest collector 0 (A) or 1 (B): the {@code host:port} agents send to. */
    public String ingestAddress(int i) {
        return "127.0.0.1:" + ingest.get(i).ready.get(0);
    }

    /** Ingest collector 0 (A) or 1 (B): its HTTP port ({@code /metrics}, {@code /api/agents} of what it sees). */
    public String ingestHttpUrl(int i) {
        return ingest.get(i).ready.get(1);
    }

    /** The query collector's API and web UI, ending in {@code /}. */
    public String queryUrl() {
        return query.ready.get(0);
    }

    public String druidRouterUrl() {
        return druid.routerUrl();
    }

    public String kafkaBootstrap() {
        return kafka.bootstrapServers();
    }

    public String frontUrl() {
        return serviceUrl(front);
    }

    public String backUrl() {
        return serviceUrl(back);
    }

    /** Requests the fleet's own traffic sent (answered 200) and failed so far; zeros without traffic. */
    public long[] traffic() {
        return traffic == null ? new long[2] : new long[] {traffic.sent(), traffic.failed()};
    }

    /** What the fleet prints once up: where to look. */
    public String describe() {
        return String.join(System.lineSeparator(),
                "Argus fleet up (everything on 127.0.0.1):",
                "  query UI and API     " + queryUrl() + "   (e.g. " + queryUrl() + "api/services)",
                "  Druid router         " + druidRouterUrl() + "   (SQL: " + druidRouterUrl() + "/druid/v2/sql)",
                "  Kafka bootstrap      " + kafkaBootstrap(),
                "  ingest collector A   " + ingestAddress(0) + "   (http " + ingestHttpUrl(0) + ")",
                "  ingest collector B   " + ingestAddress(1) + "   (http " + ingestHttpUrl(1) + ")",
                "  service front        " + frontUrl() + "/front/call   (agent -> A, fails over to B)",
                "  service back         " + backUrl() + "/back/hello   (agent -> B, fails over to A)",
                "  traffic              " + (traffic == null ? "none" : "GET " + frontUrl() + "/front/call"),
                "Ctrl-C stops everything.");
    }

    /** Stops every part, the last started first. */
    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception e) {
                System.err.println("[fleet] stopping " + started.get(i) + ": " + e);
            }
        }
        started.clear();
    }
}
