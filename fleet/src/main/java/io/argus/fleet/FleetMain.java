package io.argus.fleet;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * {@code argus-fleet}: brings up a local scale-out fleet ({@link Fleet}), prints where to look and runs until
 * SIGINT/SIGTERM, then stops every part. Exit status 2 for bad flags, 1 when a part cannot start.
 */
public final class FleetMain {
    static final String USAGE = """
            Usage: argus-fleet [options]

              --work DIR                 Kafka and Druid data and every log (default ./argus-fleet)
              --argus-home DIR           the distribution: agent/, collector/lib/, perf/lib/ (the launcher sets it)
              --http-port N              the query collector's API and UI (default 0: a free port)
              --rate N                   requests/s to front's /front/call while up (default 5; 0: none)
              --prefix P                 topics and datasources P+spans, P+calls, P+jvm, P+agents (default argus-)
              --agent JAR                the agent (default <argus-home>/agent/argus-agent.jar)
              --collector-class-path CP  the collector's class path (default <argus-home>/collector/lib/*)
              --service-class-path CP    the sample service's (default: from <argus-home>/perf/lib)
              --alert-rules FILE         alert rules for the query collector (docs/collector.md#alerting)
            """;
    private static final List<String> OPTIONS = List.of("--work", "--argus-home", "--http-port", "--rate",
            "--prefix", "--agent", "--collector-class-path", "--service-class-path", "--alert-rules");
    /** The sample service's own jar, Jetty 12 and SLF4J: not the suite's whole class path (Netty, Gatling...). */
    private static final List<String> SERVICE_JARS = List.of("argus-perf-tests-", "jetty-server-", "jetty-http-",
            "jetty-io-", "jetty-util-", "slf4j-api-");

    /** Held: the Kafka clients' INFO lines (configuration dumps, retries while the broker starts) drown the printout. */
    private static final java.util.logging.Logger KAFKA_CLIENT_LOG = java.util.logging.Logger.getLogger("org.apache.kafka");

    private FleetMain() {
    }

    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.print(USAGE);
            return;
        }
        FleetOptions options = null;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("argus-fleet: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
        }
        KAFKA_CLIENT_LOG.setLevel(java.util.logging.Level.SEVERE);
        Fleet fleet;
        try {
            fleet = Fleet.start(options, System.out);
        } catch (Exception e) {
            System.err.println("argus-fleet: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("[fleet] stopping...");
            System.out.flush();
            fleet.close();
            System.out.println("[fleet] stopped");
            System.out.flush();
            stopped.countDown();
        }, "fleet-shutdown"));
        System.out.println(fleet.describe());
        System.out.println("logs: " + options.work().resolve("log") + ", Druid's under "
                + options.work().resolve("druid").resolve("log"));
        stopped.await();
    }

    static FleetOptions parse(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!OPTIONS.contains(args[i])) {
                throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            opts.put(args[i], args[++i]);
        }
        Path home = opts.containsKey("--argus-home") ? Path.of(opts.get("--argus-home")) : null;
        String agent = opts.get("--agent");
        String collector = opts.get("--collector-class-path");
        String service = opts.get("--service-class-path");
        if (home == null && (agent == null || collector == null || service == null)) {
            throw new IllegalArgumentException("--argus-home is required unless --agent, --collector-class-path and"
                    + " --service-class-path are all given");
        }
        if (agent == null) {
            agent = home.resolve("agent").resolve("argus-agent.jar").toString();
        }
        if (!Files.isRegularFile(Path.of(agent))) {
            throw new IllegalArgumentException("invalid --agent / --argus-home: no agent jar at " + agent);
        }
        if (collector == null) {
            collector = home.resolve("collector").resolve("lib") + File.separator + "*";
        }
        if (service == null) {
            service = serviceClassPath(home.resolve("perf").resolve("lib"));
        }
        int port = number(opts, "--http-port", "0");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("invalid value for --http-port: " + port);
        }
        double rate;
        try {
            rate = Double.parseDouble(opts.getOrDefault("--rate", "5"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid value for --rate: '" + opts.get("--rate") + "'");
        }
        if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("invalid value for --rate: " + rate + " (0 or more requests/s)");
        }
        Path rules = opts.containsKey("--alert-rules") ? Path.of(opts.get("--alert-rules")).toAbsolutePath() : null;
        if (rules != null && !Files.isRegularFile(rules)) {
            throw new IllegalArgumentException("invalid value for --alert-rules: " + rules + " is not a file");
        }
        return new FleetOptions(Path.of(opts.getOrDefault("--work", "argus-fleet")).toAbsolutePath(),
                Path.of(agent).toAbsolutePath(), collector, service, port, rate,
                opts.getOrDefault("--prefix", "argus-"), rules);
    }

    private static int number(Map<String, String> opts, String name, String fallback) {
        try {
            return Integer.parseInt(opts.getOrDefault(name, fallback));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid value for " + name + ": '" + opts.get(name) + "'");
        }
    }

    /** The jars of {@link #SERVICE_JARS} in the distribution's perf/lib. */
    static String serviceClassPath(Path perfLib) {
        List<String> jars = new ArrayList<>();
        try (Stream<Path> files = Files.list(perfLib)) {
            files.filter(p -> SERVICE_JARS.stream().anyMatch(prefix -> p.getFileName().toString().startsWith(prefix)))
                    .sorted().forEach(p -> jars.add(p.toString()));
        } catch (IOException e) {
            throw new IllegalArgumentException("invalid --argus-home: cannot list " + perfLib + " (" + e + ")");
        }
        for (String prefix : SERVICE_JARS) {
            if (jars.stream().noneMatch(j -> Path.of(j).getFileName().toString().startsWith(prefix))) {
                throw new IllegalArgumentException("invalid --argus-home: no " + prefix + "*.jar in " + perfLib);
            }
        }
        return String.join(File.pathSeparator, jars);
    }
}
