package io.argus.collector.alerting;

import io.argus.collector.alerting.eval.AlertEvaluator;
import io.argus.collector.alerting.eval.SignalReader;
import io.argus.collector.alerting.notify.Notifier;
import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.rules.RuleFile;
import io.argus.collector.alerting.rules.RuleFileParser;
import io.argus.collector.alerting.rules.SignalKind;
import io.argus.collector.alerting.state.AlertTracker;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.AgentInfo;
import io.argus.collector.storage.RedQuery;
import io.argus.collector.storage.ServiceSummary;
import io.argus.collector.storage.Source;
import io.argus.collector.storage.TimeRange;
import io.argus.collector.storage.duckdb.DuckDbStorage;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.MetricBatch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What alert evaluation costs on the embedded store (a harness run by hand, not by {@code mvn verify}): a fleet's
 * call metric cells (services x routes, one 10 s cell per route and status, {@code hours} of them, written in time
 * order as agents' flushes arrive) in DuckDB, and
 * {@code rules} rules (error rate, P95, P99 and request rate over 5 min, on a route or a whole service) evaluated
 * by the real evaluator pass after pass. Beside it, in the same run, the baseline: one RED chart query of the API
 * (1 h in 30 s steps) for the same scopes. Reported per rule: wall time and the process's CPU time (DuckDB's own
 * threads included), medians over the passes; and per minute of a collector evaluating every 15 s.
 *
 * <pre>
 * mvn -q -o -pl protocol,collector-server test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * cd collector-server
 * java -cp target/test-classes:target/classes:$(cat target/cp.txt) \
 *      io.argus.collector.alerting.AlertEvaluationBenchmark [rules=100] [services=20] [routes=10] [hours=6] [passes=40]
 * </pre>
 */
public final class AlertEvaluationBenchmark {
    static final long STEP_MS = 10_000;
    static final long[] BOUNDS = {1_000_000, 5_000_000, 25_000_000, 100_000_000, 500_000_000, 2_000_000_000};

    public static void main(String[] args) throws Exception {
        int rules = arg(args, 0, 100);
        int services = arg(args, 1, 20);
        int routes = arg(args, 2, 10);
        int hours = arg(args, 3, 6);
        int passes = arg(args, 4, 40);
        Path dir = Files.createTempDirectory("argus-alert-bench");
        long now = System.currentTimeMillis();
        try (DuckDbStorage storage = DuckDbStorage.open(dir, 1 << 20, new SimpleMeterRegistry())) {
            long cells = load(storage, services, routes, hours, now);
            System.out.printf("%d call metric cells: %d services x %d routes, %d h of 10 s cells%n", cells, services,
                    routes, hours);
            List<AlertRule> ruleList = rules(rules, services, routes);
            AgentDirectory agents = new AgentDirectory() {
                @Override
                public List<ServiceSummary> services() {
                    return List.of();
                }

                @Override
                public List<AgentInfo> agents() {
                    return List.of();
                }
            };
            Path rulesFile = Files.writeString(dir.resolve("rules.yaml"), "");
            RuleFile file = new RuleFile(rulesFile, new RuleFileParser(System::getenv));
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            try (Notifier notifier = new Notifier(meters, () -> "http://argus/", 1_000);
                 AlertEvaluator evaluator = new AlertEvaluator(file, new SignalReader(storage, agents),
                         new AlertTracker(), notifier, meters, Clock.systemUTC())) {
                double[][] eval = measure(passes, () -> evaluator.evaluate(ruleList, System.currentTimeMillis()));
                double[][] chart = measure(passes, () -> {
                    long t = System.currentTimeMillis();
                    TimeRange hour = new TimeRange(Math.floorDiv(t - 3_600_000, 30_000) * 30_000,
                            Math.floorDiv(t + 29_999, 30_000) * 30_000);
                    for (AlertRule r : ruleList) {
                        storage.redSeries(new RedQuery(r.service(), r.kind(), r.method(), r.route(), hour, 30_000));
                    }
                });
                report("alert evaluation, per rule", eval, rules);
                report("baseline: one RED chart query (1 h, 30 s steps), per scope", chart, rules);
                double cpuPerRuleUs = median(eval[1]) / rules;
                System.out.printf("ratio evaluation / chart query: wall x%.2f, CPU x%.2f%n",
                        median(eval[0]) / median(chart[0]), median(eval[1]) / median(chart[1]));
                System.out.printf("every 15 s: %.1f ms of CPU per minute for %d rules (%.2f %% of one core);"
                        + " %.3f ms per rule and minute%n", cpuPerRuleUs * rules * 4 / 1000, rules,
                        cpuPerRuleUs * rules * 4 / 1000 / 600, cpuPerRuleUs * 4 / 1000);
            }
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Per pass: [0] wall µs, [1] process CPU µs; the first quarter of the passes warms up and is dropped. */
    static double[][] measure(int passes, Runnable pass) {
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int warm = passes / 4;
        double[] wall = new double[passes - warm];
        double[] cpu = new double[passes - warm];
        for (int i = 0; i < passes; i++) {
            long c0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            pass.run();
            long t1 = System.nanoTime();
            long c1 = os.getProcessCpuTime();
            if (i >= warm) {
                wall[i - warm] = (t1 - t0) / 1e3;
                cpu[i - warm] = (c1 - c0) / 1e3;
            }
        }
        return new double[][] {wall, cpu};
    }

    static void report(String what, double[][] m, int rules) {
        System.out.printf("%s: wall median %.0f µs (p10 %.0f, p90 %.0f), process CPU median %.0f µs (p10 %.0f,"
                        + " p90 %.0f); %d passes%n", what, median(m[0]) / rules, pct(m[0], 0.1) / rules,
                pct(m[0], 0.9) / rules, median(m[1]) / rules, pct(m[1], 0.1) / rules, pct(m[1], 0.9) / rules,
                m[0].length);
    }

    static double median(double[] v) {
        return pct(v, 0.5);
    }

    static double pct(double[] v, double p) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[(int) Math.min(s.length - 1, Math.round(p * (s.length - 1)))];
    }

    static List<AlertRule> rules(int n, int services, int routes) {
        SignalKind[] signals = {SignalKind.ERROR_RATE, SignalKind.P95_LATENCY, SignalKind.P99_LATENCY,
            SignalKind.REQUEST_RATE};
        double[] bounds = {0.05, 500, 1000, 0.5};
        List<AlertRule> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int s = i % services;
            String route = i % 3 == 0 ? null : "/api/r" + (i / services) % routes;
            SignalKind signal = signals[i % signals.length];
            out.add(new AlertRule("rule-" + i, "svc-" + s, "server", null, route, null, null, signal,
                    signal != SignalKind.REQUEST_RATE, bounds[i % bounds.length], Duration.ofMinutes(5),
                    Duration.ZERO, 1, "warning", List.of(), i + 1));
        }
        return out;
    }

    static long load(DuckDbStorage storage, int services, int routes, int hours, long now) {
        SplittableRandom rnd = new SplittableRandom(11);
        long from = now - hours * 3_600_000L;
        long cells = 0;
        // in time order across services, as agents' flushes arrive (the table's row groups then follow time)
        for (long t = from; t < now; t += STEP_MS) {
            for (int s = 0; s < services; s++) {
                Source source = new Source("svc-" + s, "svc-" + s + "-1");
                MetricBatch.Builder b = MetricBatch.newBuilder().setTimestampMs(t).setIntervalMs(STEP_MS);
                for (long bound : BOUNDS) {
                    b.addBucketBoundsNanos(bound);
                }
                for (int r = 0; r < routes; r++) {
                    long count = 50 + rnd.nextInt(100);
                    for (int status : new int[] {200, 500}) {
                        long n = status == 200 ? count : rnd.nextInt(3);
                        if (n == 0) {
                            continue;
                        }
                        b.addCalls(CallMetric.newBuilder().setKind(CallMetricKind.CALL_METRIC_KIND_SERVER)
                                .setMethod("GET").setTarget("/api/r" + r).setStatus(status).setCount(n)
                                .setErrors(status == 500 ? n : 0).setSumNanos(n * 8_000_000L)
                                .setMinNanos(900_000).setMaxNanos(90_000_000)
                                .addBucketCounts(n / 4).addBucketCounts(n / 2).addBucketCounts(n - n / 4 - n / 2));
                        cells++;
                    }
                }
                while (!storage.offerMetrics(source, b.build(), () -> { })) {
                    Thread.onSpinWait();
                }
            }
        }
        if (!storage.flush(Duration.ofMinutes(10))) {
            throw new IllegalStateException("the cells were not written within 10 min");
        }
        return cells;
    }

    static int arg(String[] args, int i, int absent) {
        return args.length > i ? Integer.parseInt(args[i]) : absent;
    }
}
