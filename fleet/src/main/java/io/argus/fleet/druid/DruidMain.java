package io.argus.fleet.druid;

import io.argus.cli.CommandLineSpec;
import io.argus.cluster.druid.DruidCluster;
import io.argus.collector.storage.druid.DruidDatasources;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the scale-out Druid cluster in the foreground until SIGTERM/SIGINT: starts it, sets the retention rules and,
 * given a Kafka bootstrap address, the four Kafka supervisors; prints where to point a query collector.
 * Exit status 2 for bad flags, 1 when Druid cannot start.
 */
public final class DruidMain {
    static final String COMMAND = "DruidMain";
    static final String USAGE = """
            Usage: DruidMain --work DIR [options]

              --work DIR                  metadata, deep storage, segment cache and logs go here
              --kafka HOST:PORT           start a Kafka supervisor per datasource, reading this broker
              --datasource-prefix P       datasources and topics P+spans, P+calls, P+jvm, P+agents (default argus-)
              --retention-spans PERIOD    ISO-8601, e.g. P7D (default); PT0S keeps forever
              --retention-metrics PERIOD  calls and JVM (default P30D)
              --retention-agents PERIOD   agent session events (default P30D)
              --worker-capacity N         ingestion tasks at once (default 6)
            """;

    private DruidMain() {
    }

    /** What the command line asks for. */
    record Options(Path work, String kafka, String datasourcePrefix, RetentionRules retention, int workerCapacity) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        CommandLineSpec<IllegalArgumentException> commandLine = commandLine(opts);
        Options options;
        try {
            if (commandLine.answer(commandLine.parse(args), System.out)) {
                return;
            }
            options = options(opts);
        } catch (IllegalArgumentException e) {
            System.exit(commandLine.reject(System.err, e.getMessage()));
            return;
        }
        DruidSpecs specs = new DruidSpecs(new DruidDatasources(options.datasourcePrefix()));
        DruidCluster druid;
        try {
            druid = DruidCluster.start(DruidCluster.install(), options.work(), options.workerCapacity(), System.out);
            options.retention().apply(druid.api(), specs.datasources());
            if (options.kafka() != null) {
                new DruidIngestion(druid.api(), specs).startSupervisors(options.kafka());
            }
        } catch (Exception e) {
            System.err.println(COMMAND + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            druid.close();
            stopped.countDown();
        }, "druid-shutdown"));
        System.out.println("Druid router (SQL, overlord and coordinator APIs): " + druid.routerUrl());
        System.out.println("datasources: " + specs.all() + (options.kafka() != null
                ? ", Kafka supervisors reading " + options.kafka() : ", no supervisors (no --kafka)"));
        System.out.println("query collector: argus-collector --query druid --druid-url " + druid.routerUrl()
                + " --druid-datasource-prefix " + specs.datasources().prefix());
        stopped.await();
    }

    /** The options of {@code args}; {@code --help} and {@code --completion} are the caller's to look for. */
    static Options parse(String... args) {
        Map<String, String> opts = new HashMap<>();
        commandLine(opts).parse(args);
        return options(opts);
    }

    static CommandLineSpec<IllegalArgumentException> commandLine(Map<String, String> opts) {
        CommandLineSpec<IllegalArgumentException> spec = CommandLineSpec.of(COMMAND, USAGE,
                IllegalArgumentException::new);
        for (String[] option : new String[][] {{"--work", "DIR"}, {"--kafka", "HOST:PORT"},
                {"--datasource-prefix", "P"}, {"--retention-spans", "PERIOD"}, {"--retention-metrics", "PERIOD"},
                {"--retention-agents", "PERIOD"}, {"--worker-capacity", "N"}}) {
            spec.option(option[0], option[1], value -> opts.put(option[0], value));
        }
        return spec;
    }

    private static Options options(Map<String, String> opts) {
        if (!opts.containsKey("--work")) {
            throw new IllegalArgumentException("--work DIR is required");
        }
        RetentionRules defaults = RetentionRules.defaults();
        RetentionRules retention = new RetentionRules(period(opts, "--retention-spans", defaults.spans()),
                period(opts, "--retention-metrics", defaults.metrics()),
                period(opts, "--retention-agents", defaults.agents()));
        int capacity = DruidCluster.DEFAULT_WORKER_CAPACITY;
        try {
            capacity = Integer.parseInt(opts.getOrDefault("--worker-capacity", Integer.toString(capacity)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid value for --worker-capacity: " + opts.get("--worker-capacity"));
        }
        return new Options(Path.of(opts.get("--work")), opts.get("--kafka"),
                opts.getOrDefault("--datasource-prefix", "argus-"), retention, capacity);
    }

    private static Duration period(Map<String, String> opts, String name, Duration fallback) {
        String v = opts.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            Duration d = Duration.parse(v);
            if (d.isNegative()) {
                throw new IllegalArgumentException("invalid value for " + name + ": " + v + " is negative");
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("invalid value for " + name + ": '" + v
                    + "' (an ISO-8601 period such as P7D or PT12H)");
        }
    }
}
