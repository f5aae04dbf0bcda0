package io.argus.perf.moobench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.argus.perf.harness.ArgusHome;
import io.argus.perf.harness.FileTrees;
import io.argus.perf.harness.HostFacts;
import io.argus.cluster.process.ManagedProcess;
import io.argus.perf.harness.proc.Taskset;
import io.argus.perf.harness.run.CollectorProcess;
import io.argus.perf.moobench.report.MooReport;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The MooBench-style benchmark's controller: starts a fresh benchmark JVM ({@link MonitoredApp})
 * per configuration and run, interleaving the configurations run by run so that drift of the
 * machine hits them alike; analyses each run's raw timings; then the recursion-depth series; and
 * writes {@code moobench.md}, {@code moobench.json}, {@code timeline.svg} and {@code depth.svg}.
 */
public final class MooBenchMain {

    public static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    static final List<String> BASE_JVM_FLAGS = List.of("-Xms512m", "-Xmx512m", "-XX:+AlwaysPreTouch", "-XX:+UseG1GC");

    private final MooBenchOptions options;
    private final PrintStream console;
    private Path agentDir;
    private Path otelAgent;
    private Path collectorScript;
    private String collectorClasspath;
    private CollectorProcess.Launch collectorLaunch;
    private boolean pinned;
    private String childClasspath;
    private int order;
    private int plannedRuns;

    MooBenchMain(MooBenchOptions options, PrintStream console) {
        this.options = options;
        this.console = console;
    }

    public static void main(String[] args) {
        MooBenchOptions options;
        try {
            options = MooBenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("argus-moobench: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.print(MooBenchOptions.USAGE);
            return;
        }
        int status;
        try {
            status = new MooBenchMain(options, System.out).run();
        } catch (SetupException e) {
            System.err.println("argus-moobench: " + e.getMessage());
            status = 2;
        } catch (Exception e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    /**
     * Runs the benchmark for another tool (argus-perf's regression check) and returns its results, also written to
     * {@code moobench.json} and {@code moobench.md} in the options' folder.
     *
     * @throws Exception when it could not start (missing agent or plugin) or failed as a whole
     */
    public static MooResults runFor(MooBenchOptions options, PrintStream console) throws Exception {
        new MooBenchMain(options, console).run();
        return JSON.readValue(options.out.toAbsolutePath().normalize().resolve("moobench.json").toFile(),
                MooResults.class);
    }

    /** A missing agent, plugin, peer or collector: nothing was started. */
    static final class SetupException extends Exception {
        private static final long serialVersionUID = 1L;

        SetupException(String message) {
            super(message);
        }
    }

    /** Runs the benchmark (or rewrites the report); returns the exit status. */
    int run() throws Exception {
        if (options.reportOnly != null) {
            MooResults results = JSON.readValue(options.reportOnly.resolve("moobench.json").toFile(), MooResults.class);
            MooReport.write(results, options.reportOnly);
            console.println(MooReport.headline(results));
            return results.failures.isEmpty() ? 0 : 1;
        }
        Path out = options.out.toAbsolutePath().normalize();
        Files.createDirectories(out);
        resolveInputs(out);

        MooResults results = new MooResults();
        results.startedAt = Instant.now().toString();
        fillSettings(results.settings);
        fillMachine(results.machine);

        List<Integer> depths = options.depths;
        plannedRuns = options.runs * options.configs.size();
        for (int d : depths) {
            for (BenchConfig c : options.depthConfigs) {
                if (!(d == options.depth && options.configs.contains(c))) {
                    plannedRuns += options.depthRuns;
                }
            }
        }
        console.printf(Locale.ROOT, "MooBench: %d JVMs, %,d calls each; main series depth %d, configurations %s%s%n",
                plannedRuns, options.calls, options.depth, labels(options.configs),
                depths.isEmpty() ? "" : "; depth series " + depths + " for " + labels(options.depthConfigs));
        console.println("report folder: " + out + (pinned ? "; benchmark thread pinned to cpu" + options.benchCpu
                + ", the rest of its JVM and the collector to cpu" + options.otherCpu : "; not pinned"));

        // main series: run 1 of every configuration, then run 2, ...
        Map<BenchConfig, MooResults.ConfigResult> main = new LinkedHashMap<>();
        Map<BenchConfig, RunAnalysis.Pool> mainPools = new LinkedHashMap<>();
        for (BenchConfig c : options.configs) {
            main.put(c, newConfigResult(c, options.depth));
            mainPools.put(c, new RunAnalysis.Pool());
        }
        for (int run = 1; run <= options.runs; run++) {
            for (BenchConfig c : options.configs) {
                execute(c, options.depth, run, main.get(c), mainPools.get(c), out, results.failures);
            }
        }
        for (BenchConfig c : options.configs) {
            mainPools.get(c).finish(main.get(c));
            results.configs.add(main.get(c));
        }

        // depth series: reuses the main series where configuration and depth coincide
        if (!depths.isEmpty()) {
            Map<String, MooResults.ConfigResult> series = new LinkedHashMap<>();
            Map<String, RunAnalysis.Pool> pools = new LinkedHashMap<>();
            for (int d : depths) {
                for (BenchConfig c : options.depthConfigs) {
                    if (d == options.depth && main.containsKey(c)) {
                        series.put(c.label() + "@" + d, main.get(c));
                    } else {
                        series.put(c.label() + "@" + d, newConfigResult(c, d));
                        pools.put(c.label() + "@" + d, new RunAnalysis.Pool());
                    }
                }
            }
            for (int run = 1; run <= options.depthRuns; run++) {
                for (int d : depths) {
                    for (BenchConfig c : options.depthConfigs) {
                        RunAnalysis.Pool pool = pools.get(c.label() + "@" + d);
                        if (pool != null) {
                            execute(c, d, run, series.get(c.label() + "@" + d), pool, out, results.failures);
                        }
                    }
                }
            }
            for (Map.Entry<String, MooResults.ConfigResult> e : series.entrySet()) {
                RunAnalysis.Pool pool = pools.get(e.getKey());
                if (pool != null) {
                    pool.finish(e.getValue());
                }
                results.depthSeries.add(e.getValue());
            }
        }

        results.finishedAt = Instant.now().toString();
        results.machine.loadAverageAtEnd = loadAverage();
        JSON.writeValue(out.resolve("moobench.json").toFile(), results);
        MooReport.write(results, out);
        if (!options.keepRaw) {
            FileTrees.deleteRecursively(out.resolve("raw"));
        }
        FileTrees.deleteRecursively(out.resolve("work"));
        console.println();
        console.println(MooReport.headline(results));
        console.println("report: " + out.resolve("moobench.md"));
        if (!results.failures.isEmpty()) {
            console.println("FAILED runs:");
            results.failures.forEach(f -> console.println("  " + f));
            return 1;
        }
        return 0;
    }

    private MooResults.ConfigResult newConfigResult(BenchConfig c, int depth) {
        MooResults.ConfigResult r = new MooResults.ConfigResult();
        r.name = c.label();
        r.description = c.description();
        r.depth = depth;
        r.jvmFlags = new ArrayList<>(BASE_JVM_FLAGS);
        r.jvmFlags.addAll(options.jvmOptions);
        r.jvmFlags.addAll(c.agentFlags(agentDir, otelAgent, c.needsCollector() ? "127.0.0.1:<port>" : null));
        return r;
    }

    /** One fresh benchmark JVM. Failures are recorded, never thrown: the other runs go on. */
    private void execute(BenchConfig config, int depth, int run, MooResults.ConfigResult result,
                         RunAnalysis.Pool pool, Path out, List<String> failures) throws InterruptedException {
        order++;
        String id = config.fileName() + "-d" + depth + "-r" + run;
        MooResults.RunResult r = new MooResults.RunResult();
        r.run = run;
        r.order = order;
        r.log = "logs/" + id + ".log";
        Path raw = out.resolve("raw").resolve(id + ".bin");
        Path log = out.resolve(r.log);
        long started = System.nanoTime();
        CollectorProcess collector = null;
        Path collectorData = out.resolve("work").resolve("collector-" + id);
        try {
            if (config.needsCollector()) {
                collector = CollectorProcess.start(collectorLaunch.isolatedOn(pinned ? options.otherCpu : -1), collectorData,
                        out.resolve("logs").resolve("collector-" + id + ".log"), Duration.ofSeconds(60));
            }
            List<String> cmd = new ArrayList<>();
            if (pinned) {
                cmd.addAll(Taskset.on(options.otherCpu));
            }
            cmd.add(options.java.toString());
            cmd.addAll(BASE_JVM_FLAGS);
            cmd.addAll(options.jvmOptions);
            cmd.addAll(config.agentFlags(agentDir, otelAgent, collector == null ? null : collector.ingestAddress()));
            cmd.addAll(List.of("-cp", childClasspath, MonitoredApp.class.getName(),
                    "--calls", Integer.toString(options.calls), "--depth", Integer.toString(depth),
                    "--method-time", Long.toString(options.methodTime), "--out", raw.toString()));
            if (pinned) {
                cmd.addAll(List.of("--pin-cpu", Integer.toString(options.benchCpu)));
            }
            Files.createDirectories(raw.getParent());
            r.loadBefore = loadAverage();
            ManagedProcess child = ManagedProcess.startIsolated("moobench-" + id, cmd, null, null, log, null);
            if (!child.waitFor(Duration.ofSeconds(options.timeoutSeconds))) {
                child.stop(5000);
                throw new IOException("did not finish within " + options.timeoutSeconds + " s");
            }
            r.loadAfter = loadAverage();
            List<String> lines = child.output();
            Map<String, String> facts = facts(lines);
            if (child.exitValue() != 0 || !"true".equals(facts.get("done"))) {
                throw new IOException("exit status " + child.exitValue() + "; last output:\n" + child.describeTail(15));
            }
            checkAgent(config, lines, facts, options.spanCheck ? depth : 0);
            r.pin = facts.getOrDefault("pin", "off");
            if (pinned && !r.pin.startsWith("cpu")) {
                throw new IOException("the benchmark thread could not be pinned: " + r.pin);
            }
            readFacts(facts, r);
            if (collector != null) {
                r.counters.putAll(collector.agentSpans(BenchConfig.SERVICE));
            }
            long[] times = RunAnalysis.read(raw);
            if (times.length != options.calls) {
                throw new IOException("expected " + options.calls + " timings, found " + times.length);
            }
            RunAnalysis.analyze(times, options.bins, r, pool);
            r.ok = true;
        } catch (IOException | RuntimeException e) {
            r.ok = false;
            r.error = e.getMessage();
            failures.add(config.label() + " depth " + depth + " run " + run + ": " + e.getMessage() + " (log: " + log + ")");
        } finally {
            if (collector != null) {
                collector.close();
                FileTrees.deleteRecursively(collectorData);
            }
            if (!options.keepRaw) {
                try {
                    Files.deleteIfExists(raw);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
        r.wallSeconds = (System.nanoTime() - started) / 1e9;
        result.runs.add(r);
        if (r.ok) {
            console.printf(Locale.ROOT, "[%3d/%d] %-12s depth %2d run %d: mean %,9.1f ns  median %,9.1f ns  p99 %,9.1f ns  %s(%.1f s)%n",
                    order, plannedRuns, config.label(), depth, run, r.meanNs, r.medianNs, r.p99Ns,
                    r.counters.containsKey("argus.droppedSpans") ? "dropped " + r.counters.get("argus.droppedSpans") + " spans "
                            + (r.dropShare == null ? "" : String.format(Locale.ROOT, "(measured half: %.1f%% dropped, %,.0f sent/s) ",
                            r.dropShare * 100, r.spansSentPerSecond)) : "",
                    r.wallSeconds);
        } else {
            console.printf(Locale.ROOT, "[%3d/%d] %-12s depth %2d run %d: FAILED %s%n", order, plannedRuns, config.label(),
                    depth, run, firstLine(r.error));
        }
    }

    /**
     * A broken agent must never pass for a fast one: each agent proves it started and, when
     * {@code depth > 0}, that collecting made a span per instrumented call.
     */
    static void checkAgent(BenchConfig config, List<String> lines, Map<String, String> facts, int depth) throws IOException {
        String all = String.join("\n", lines);
        if (config.isArgus()) {
            if (!all.matches("(?s).*\\[argus] Argus \\S+ started in \\d+ ms.*plugins=\\[[^\\]]*\\bmethod\\b.*")) {
                throw new IOException("the Argus agent did not start with the method plugin; output:\n" + tail(lines));
            }
            if (all.contains("[argus] ERROR")) {
                throw new IOException("the Argus agent reported an error; output:\n" + tail(lines));
            }
            if (config != BenchConfig.T_I && depth > 0) {
                long spans = parseLong(facts.get("argus_sentSpans")) + parseLong(facts.get("argus_droppedSpans"));
                long calls = parseLong(facts.get("calls"));
                // the queue may still hold up to its capacity when the counters are read
                if (facts.containsKey("argus_sentSpans") && spans + 65_536 < calls * depth) {
                    throw new IOException("only " + spans + " spans were counted for " + calls + " calls of depth " + depth
                            + ": is monitoredMethod instrumented?");
                }
            }
        } else if (config.isOtel()) {
            if (!all.contains("opentelemetry-javaagent")) {
                throw new IOException("the OpenTelemetry agent did not report its start; output:\n" + tail(lines));
            }
        }
    }

    private static String tail(List<String> lines) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }

    static Map<String, String> facts(List<String> lines) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith(MonitoredApp.PREFIX)) {
                String kv = line.substring(MonitoredApp.PREFIX.length());
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    out.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
        }
        return out;
    }

    static void readFacts(Map<String, String> f, MooResults.RunResult r) {
        long steadyCalls = parseLong(f.get("steady_calls"));
        long alloc = parseLong(f.get("alloc_bytes_steady"));
        if (steadyCalls > 0 && alloc >= 0) {
            r.allocBytesPerTrace = (double) alloc / steadyCalls;
        }
        r.gcCountSteady = parseLong(f.get("gc_count_steady"));
        r.gcMillisSteady = parseLong(f.get("gc_ms_steady"));
        r.gcCountTotal = parseLong(f.get("gc_count_total"));
        for (String k : List.of("sentSpans", "droppedSpans", "adviceErrors", "sentSpans_steady", "droppedSpans_steady")) {
            if (f.containsKey("argus_" + k)) {
                r.counters.put("argus." + k.replace("_steady", "Steady"), parseLong(f.get("argus_" + k)));
            }
        }
        long sent = parseLong(f.get("argus_sentSpans_steady"));
        long dropped = parseLong(f.get("argus_droppedSpans_steady"));
        long wallNs = parseLong(f.get("steady_wall_ns"));
        if (sent >= 0 && dropped >= 0 && wallNs > 0) {
            r.spansSentPerSecond = sent * 1e9 / wallNs;
            r.dropShare = sent + dropped == 0 ? 0 : (double) dropped / (sent + dropped);
        }
    }

    private static long parseLong(String v) {
        try {
            return v == null ? -1 : Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String labels(List<BenchConfig> configs) {
        List<String> out = new ArrayList<>();
        configs.forEach(c -> out.add(c.label()));
        return String.join(", ", out);
    }

    // ------------------------------------------------------------------ inputs

    private void resolveInputs(Path out) throws IOException, SetupException {
        childClasspath = ArgusHome.ownCodeSource().toString();
        Path home = options.argusHome != null ? options.argusHome.toAbsolutePath() : guessArgusHome();
        boolean argus = needs(BenchConfig::isArgus);
        if (argus) {
            Path dir = options.agentDir != null ? options.agentDir : home == null ? null : home.resolve("agent");
            if (dir == null || !Files.isRegularFile(dir.resolve("argus-agent.jar"))) {
                throw new SetupException("no Argus agent: give --agent-dir DIR or --argus-home DIR (with agent/argus-agent.jar)"
                        + (dir == null ? "" : "; looked in " + dir));
            }
            agentDir = withMethodPlugin(dir.toAbsolutePath().normalize(), out);
        }
        if (needs(BenchConfig::isOtel)) {
            otelAgent = options.otelAgent != null ? options.otelAgent : guessOtelAgent(home);
            if (otelAgent == null || !Files.isRegularFile(otelAgent)) {
                throw new SetupException("no OpenTelemetry Java agent: give --otel-agent JAR (opentelemetry-javaagent.jar),"
                        + " or leave otel-off and otel-on out of --configs");
            }
            otelAgent = otelAgent.toAbsolutePath().normalize();
        }
        if (needs(BenchConfig::needsCollector)) {
            if (options.collectorClasspath != null) {
                collectorClasspath = options.collectorClasspath;
                collectorLaunch = CollectorProcess.Launch.classPath(options.java, collectorClasspath);
            } else if (home != null && Files.isRegularFile(home.resolve("collector/bin/argus-collector"))) {
                collectorScript = home.resolve("collector/bin/argus-collector");
                collectorLaunch = CollectorProcess.Launch.script(collectorScript, options.java.toAbsolutePath().getParent().getParent());
            } else {
                throw new SetupException("no collector for T+I+C+W and T+I+C+W(all): give --argus-home DIR (with collector/bin/argus-collector)"
                        + " or --collector-classpath CP, or leave them out of --configs");
            }
        }
        pinned = options.pin && Runtime.getRuntime().availableProcessors() >= 2 && Taskset.available();
    }

    private boolean needs(java.util.function.Predicate<BenchConfig> p) {
        return options.configs.stream().anyMatch(p)
                || (!options.depths.isEmpty() && options.depthConfigs.stream().anyMatch(p));
    }

    /**
     * The agent folder to use: {@code dir} itself when its plugins/ holds the method plugin, else
     * a copy in {@code <out>/agent} with the plugin added (from --method-plugin or the source tree).
     */
    private Path withMethodPlugin(Path dir, Path out) throws IOException, SetupException {
        if (methodPluginIn(dir) != null) {
            return dir;
        }
        Path plugin = options.methodPlugin != null ? options.methodPlugin : guessMethodPlugin();
        if (plugin == null || !Files.isRegularFile(plugin)) {
            throw new SetupException("the agent in " + dir + " has no method plugin (plugins/argus-plugin-method*.jar):"
                    + " give --method-plugin JAR (agent-plugins/method/target/argus-plugin-method-*.jar)");
        }
        Path copy = out.resolve("agent");
        FileTrees.deleteRecursively(copy);
        FileTrees.copy(dir, copy);
        Files.createDirectories(copy.resolve("plugins"));
        Files.copy(plugin, copy.resolve("plugins").resolve(plugin.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        return copy;
    }

    static Path methodPluginIn(Path agentDir) throws IOException {
        Path plugins = agentDir.resolve("plugins");
        if (!Files.isDirectory(plugins)) {
            return null;
        }
        try (Stream<Path> files = Files.list(plugins)) {
            return files.filter(p -> p.getFileName().toString().matches("argus-plugin-method([-.].*)?\\.jar"))
                    .findFirst().orElse(null);
        }
    }

    /** {@code <home>/perf/lib/x.jar} in a distribution; {@code distribution/target/argus} in the source tree. */
    static Path guessArgusHome() {
        Path home = ArgusHome.guess();
        Path repo = ArgusHome.sourceTree();
        return home != null || repo == null ? home : repo.resolve("distribution/target/argus");
    }

    private static Path guessMethodPlugin() throws IOException {
        Path repo = ArgusHome.sourceTree();
        if (repo == null) {
            return null;
        }
        Path target = repo.resolve("agent-plugins/method/target");
        if (!Files.isDirectory(target)) {
            return null;
        }
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().matches("argus-plugin-method-[^/]*\\.jar"))
                    .findFirst().orElse(null);
        }
    }

    private static Path guessOtelAgent(Path home) {
        List<Path> candidates = new ArrayList<>();
        if (home != null) {
            candidates.add(home.resolve("perf/peers/opentelemetry-javaagent.jar"));
        }
        Path repo = ArgusHome.sourceTree();
        if (repo != null) {
            candidates.add(repo.resolve("perf-tests/target/peers/opentelemetry-javaagent.jar"));
        }
        return candidates.stream().filter(Files::isRegularFile).findFirst().orElse(null);
    }

    // ------------------------------------------------------------------ facts for the report

    private void fillSettings(MooResults.Settings s) throws IOException {
        s.quick = options.quick;
        s.calls = options.calls;
        s.depth = options.depth;
        s.methodTimeNs = options.methodTime;
        s.runs = options.runs;
        s.bins = options.bins;
        options.configs.forEach(c -> s.configs.add(c.label()));
        s.depths.addAll(options.depths);
        options.depthConfigs.forEach(c -> s.depthConfigs.add(c.label()));
        s.depthRuns = options.depthRuns;
        s.pinned = pinned;
        s.benchCpu = pinned ? options.benchCpu : -1;
        s.otherCpu = pinned ? options.otherCpu : -1;
        s.jvmOptions.addAll(BASE_JVM_FLAGS);
        s.jvmOptions.addAll(options.jvmOptions);
        s.agentDir = agentDir == null ? null : agentDir.toString();
        if (agentDir != null && Files.isDirectory(agentDir.resolve("plugins"))) {
            try (Stream<Path> files = Files.list(agentDir.resolve("plugins"))) {
                files.map(p -> p.getFileName().toString()).sorted().forEach(s.agentPlugins::add);
            }
        }
        s.otelAgent = otelAgent == null ? null : otelAgent + " (" + jarVersion(otelAgent) + ")";
        s.collector = collectorScript != null ? collectorScript.toString()
                : collectorClasspath != null ? "io.argus.collector.CollectorMain (class path given)" : null;
        s.tracedMethod = BenchConfig.TRACED_CLASS + "#" + BenchConfig.TRACED_METHOD;
    }

    private void fillMachine(MooResults.Machine m) {
        m.cores = Runtime.getRuntime().availableProcessors();
        m.memoryMb = HostFacts.memTotalMb();
        m.cpuModel = HostFacts.cpuModel();
        m.kernel = System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch");
        m.clockSource = HostFacts.clockSource();
        m.benchJava = HostFacts.javaVersion(options.java);
        m.controllerJava = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        m.loadAverageAtStart = loadAverage();
    }

    /** As the report shows it: "" when unknown. */
    static String loadAverage() {
        String l = HostFacts.loadAverage();
        return l == null ? "" : l;
    }

    private static String jarVersion(Path jar) {
        try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar.toFile())) {
            String v = j.getManifest() == null ? null : j.getManifest().getMainAttributes().getValue("Implementation-Version");
            return v == null ? "version unknown" : v;
        } catch (IOException e) {
            return "version unknown";
        }
    }
}
