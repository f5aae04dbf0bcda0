package io.argus.fleet.druid;

import io.argus.cluster.druid.DruidCluster;
import io.argus.collector.storage.druid.DruidDatasources;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the scale-out Druid cluster in the foreground until SIGTERM/SIGINT: starts it, sets the retention rules and,
 * given a Kafka bootstrap address, the four Kafka supervisors; prints where to point a query collector.
 * Exit status 2 for bad flags, 1 when Druid cannot start.
 */
public final class DruidMain {
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

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                fail("expected --option VALUE pairs, got '" + args[i] + "'");
            }
            opts.put(args[i], args[++i]);
        }
        for (String name : opts.keySet()) {
            if (!List.of("--work", "--kafka", "--datasource-prefix", "--retention-spans", "--retention-metrics",
                    "--retention-agents", "--worker-capacity").contains(name)) {
                fail("unknown option '" + name + "'");
            }
        }
        if (!opts.containsKey("--work")) {
            fail("--work DIR is required");
        }
        RetentionRules defaults = RetentionRules.defaults();
        RetentionRules retention = new RetentionRules(period(opts, "--retention-spans", defaults.spans()),
                period(opts, "--retention-metrics", defaults.metrics()),
                period(opts, "--retention-agents", defaults.agents()));
        int capacity = DruidCluster.DEFAULT_WORKER_CAPACITY;
        try {
            capacity = Integer.parseInt(opts.getOrDefault("--worker-capacity", Integer.toString(capacity)));
        } catch (NumberFormatException e) {
            fail("invalid value for --worker-capacity: " + opts.get("--worker-capacity"));
        }
        DruidSpecs specs = new DruidSpecs(new DruidDatasources(opts.getOrDefault("--datasource-prefix", "argus-")));
        DruidCluster druid;
        try {
            druid = DruidCluster.start(DruidCluster.install(), Path.of(opts.get("--work")), capacity, System.out);
            retention.apply(druid.api(), specs.datasources());
            if (opts.containsKey("--kafka")) {
                new DruidIngestion(druid.api(), specs).startSupervisors(opts.get("--kafka"));
            }
        } catch (Exception e) {
            System.err.println("druid: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            druid.close();
            stopped.countDown();
        }, "druid-shutdown"));
        System.out.println("Druid router (SQL, overlord and coordinator APIs): " + druid.routerUrl());
        System.out.println("datasources: " + specs.all() + (opts.containsKey("--kafka")
                ? ", Kafka supervisors reading " + opts.get("--kafka") : ", no supervisors (no --kafka)"));
        System.out.println("query collector: argus-collector --query druid --druid-url " + druid.routerUrl()
                + " --druid-datasource-prefix " + specs.datasources().prefix());
        stopped.await();
    }

    private static Duration period(Map<String, String> opts, String name, Duration fallback) {
        String v = opts.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            Duration d = Duration.parse(v);
            if (d.isNegative()) {
                fail("invalid value for " + name + ": " + v + " is negative");
            }
            return d;
        } catch (DateTimeParseException e) {
            fail("invalid value for " + name + ": '" + v + "' (an ISO-8601 period such as P7D or PT12H)");
            return fallback;
        }
    }

    private static void fail(String message) {
        System.err.println("druid: " + message);
        System.err.print(USAGE);
        System.exit(2);
    }
}
