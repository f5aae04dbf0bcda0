package io.argus.perf.jmh;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the benchmarks of this package ({@link ProbeCostBenchmark}, {@link JettyClientBenchmark},
 * {@link OkHttpClientBenchmark}) three times, each in its own forked JVMs: without the agent,
 * with the agent at 0% and at 100% sampling, with JMH's GC profiler, and prints one Markdown table
 * (ns/op with the 99.9% error, and allocated bytes per operation).
 *
 * <pre>
 * java -cp "perf-tests/target/lib/*" io.argus.perf.jmh.ProbeCostMain \
 *     [--agent distribution/target/argus/agent/argus-agent.jar] [--include regex] [--forks 1]
 *     [--warmup 3] [--iterations 5] [--seconds 1] [--agent-options "-Dargus.plugin.jetty-client.enabled=false"]
 *     [--jvm-options "-XX:-DoEscapeAnalysis"] [--variant-options "-Dargus.state.ownerFields=false"]
 * </pre>
 * {@code --agent-options} adds JVM options to the two agent configurations only (e.g. to switch one
 * plugin off and see what the rest of the agent costs); {@code --jvm-options} adds JVM options to all
 * three (e.g. to take the JIT's escape analysis out of an allocation comparison); {@code --variant-options}
 * adds two more agent configurations, at 0% and 100% with those options, to compare in the same run.
 * The agent exports nowhere ({@code argus.exporter.mode=discard}), so only the application-side
 * cost is measured, not a collector's.
 */
public final class ProbeCostMain {

    private ProbeCostMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("agent", "/work/main/distribution/target/argus/agent/argus-agent.jar");
        options.put("include", "io\\.argus\\.perf\\.jmh\\..*Benchmark\\..*");
        options.put("forks", "1");
        options.put("warmup", "3");
        options.put("iterations", "5");
        options.put("seconds", "1");
        options.put("agent-options", "");
        options.put("jvm-options", "");
        options.put("variant-options", "");
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--") || !options.containsKey(args[i].substring(2))) {
                throw new IllegalArgumentException("unknown option " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        Path agent = Paths.get(options.get("agent")).toAbsolutePath();
        if (!Files.isRegularFile(agent)) {
            throw new IllegalArgumentException("no agent jar at " + agent + " (build the distribution, or pass --agent)");
        }
        List<String> commonList = new ArrayList<>(List.of("-Xms512m", "-Xmx512m", "-XX:+UseParallelGC"));
        for (String extra : options.get("jvm-options").trim().split("\\s+")) {
            if (!extra.isEmpty()) {
                commonList.add(extra);
            }
        }
        String[] common = commonList.toArray(new String[0]);
        List<String> agentArgList = new ArrayList<>(List.of("-javaagent:" + agent, "-Dargus.exporter.mode=discard",
                "-Dargus.startup.mode=premain", "-Dargus.log.level=warn"));
        for (String extra : options.get("agent-options").trim().split("\\s+")) {
            if (!extra.isEmpty()) {
                agentArgList.add(extra);
            }
        }
        String[] agentArgs = agentArgList.toArray(new String[0]);

        Map<String, String[]> configs = new LinkedHashMap<>();
        configs.put("no agent", common);
        putAgentConfigs(configs, "", common, agentArgs);
        String variant = options.get("variant-options").trim();
        if (!variant.isEmpty()) {
            putAgentConfigs(configs, " " + variant, common, concat(agentArgs, variant.split("\\s+")));
        }

        List<String> rows = new ArrayList<>();
        rows.add("| benchmark | configuration | ns/op (± 99.9% error) | B/op (± 99.9% error) |");
        rows.add("|---|---|---:|---:|");
        Map<String, List<String>> byBenchmark = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> config : configs.entrySet()) {
            ChainedOptionsBuilder builder = new OptionsBuilder()
                    .include(options.get("include"))
                    .forks(Integer.parseInt(options.get("forks")))
                    .warmupIterations(Integer.parseInt(options.get("warmup")))
                    .warmupTime(TimeValue.seconds(Long.parseLong(options.get("seconds"))))
                    .measurementIterations(Integer.parseInt(options.get("iterations")))
                    .measurementTime(TimeValue.seconds(Long.parseLong(options.get("seconds"))))
                    .addProfiler(GCProfiler.class)
                    .jvmArgsAppend(config.getValue());
            Collection<RunResult> results = new Runner(builder.build()).run();
            for (RunResult result : results) {
                String name = result.getParams().getBenchmark();
                name = name.substring(name.lastIndexOf('.') + 1);
                Result<?> primary = result.getPrimaryResult();
                Result<?> alloc = result.getSecondaryResults().get("gc.alloc.rate.norm");
                byBenchmark.computeIfAbsent(name, k -> new ArrayList<>()).add(String.format(Locale.ROOT,
                        "| %s | %s | %,.1f ± %,.1f | %s |", name, config.getKey(), primary.getScore(),
                        primary.getScoreError(),
                        alloc == null ? "n/a" : String.format(Locale.ROOT, "%,.1f ± %,.1f", alloc.getScore(),
                                alloc.getScoreError())));
            }
        }
        byBenchmark.values().forEach(rows::addAll);
        System.out.println();
        rows.forEach(System.out::println);
    }

    /** The agent at 0% and at 100% sampling (an open span on the benchmark thread), labelled with {@code suffix}. */
    private static void putAgentConfigs(Map<String, String[]> configs, String suffix, String[] common,
                                        String[] agentArgs) {
        configs.put("agent 0%" + suffix, concat(common, agentArgs, "-Dargus.tracing.samplingRate=0"));
        configs.put("agent 100%" + suffix, concat(common, agentArgs, "-Dargus.tracing.samplingRate=100",
                "-Dbench.openSpan=true"));
    }

    private static String[] concat(String[] first, String[] second, String... more) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(List.of(second));
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }
}
