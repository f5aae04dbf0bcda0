package io.argus.perf.moobench;

import io.argus.cli.CommandLineSpec;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of {@link MooBenchMain}. Explicit options win over {@code --quick}'s defaults wherever they stand. */
public final class MooBenchOptions {

    static final String COMMAND = "argus-moobench";
    static final String USAGE = """
            Usage: argus-moobench [options]

            MooBench-style micro-benchmark of the agent's overhead per instrumented call: a single
            thread calls MonitoredClass.monitoredMethod(methodTime, recDepth) and times each call;
            the first half of the calls of each fresh JVM is warm-up and thrown away.

              --configs A,B,...     of T, T+I, T+I+C, T+I+C+W, T+I+C+W(all), otel-off, otel-on
                                    (default: all seven)
              --calls N             calls per JVM (default 2000000)
              --depth N             recursion depth of the main series (default 10)
              --method-time NS      busy-wait of the innermost call in ns (default 0)
              --runs N              fresh JVMs per configuration (default 3)
              --depths A,B,...      the recursion-depth series (default 1,2,4,8,16,32; 'none' skips it)
              --depth-configs A,..  configurations of the depth series (default T,T+I,T+I+C,T+I+C+W)
              --depth-runs N        JVMs per (configuration, depth) (default: --runs)
              --bins N              bins of the time series and of the throughput (default 1000)
              --quick               a check that everything runs: 200000 calls, 1 run, depths 1,4
              --out DIR             report folder (default ./moobench-report)
              --argus-home DIR      the distribution: agent/, collector/, perf/peers/
              --agent-dir DIR       an Argus agent folder (default <argus-home>/agent)
              --method-plugin JAR   the method plugin, added to a copy of the agent folder if it has none
              --otel-agent JAR      opentelemetry-javaagent.jar (default <argus-home>/perf/peers/ or
                                    perf-tests/target/peers/)
              --collector-classpath CP  run io.argus.collector.CollectorMain from this class path instead
                                    of <argus-home>/collector/bin/argus-collector
              --java PATH           java for the benchmark JVMs (default: this JVM's)
              --jvm-opt OPT         extra option for every benchmark JVM (repeatable; --jvm-opt=-X.. form too)
              --no-pin              do not pin; by default the benchmark thread runs alone on --bench-cpu
                                    and the rest of its JVM and the collector on --other-cpu (taskset)
              --bench-cpu N         default 1
              --other-cpu N         default 0
              --timeout N           seconds allowed per JVM (default 900)
              --no-span-check       do not require T+I+C and the W configurations to count a span per
                                    instrumented call (only for diagnostic agent builds that skip the
                                    span queue)
              --keep-raw            keep each run's raw timings (<out>/raw/*.bin, 8 bytes per call)
              --report-only DIR     rewrite the report from DIR/moobench.json
              --help

            Exit status: 0 when every run succeeded, 1 when some failed (the report says which),
            2 for bad arguments or a missing agent, plugin, peer or collector.
            """;

    public boolean quick;
    public List<BenchConfig> configs = new ArrayList<>(List.of(BenchConfig.values()));
    public Integer calls;
    public int depth = 10;
    public long methodTime;
    public Integer runs;
    public List<Integer> depths;
    public List<BenchConfig> depthConfigs = new ArrayList<>(
            List.of(BenchConfig.T, BenchConfig.T_I, BenchConfig.T_I_C, BenchConfig.T_I_C_W));
    public Integer depthRuns;
    public int bins = 1000;
    public Path out = Path.of("moobench-report");
    public Path argusHome;
    public Path agentDir;
    public Path methodPlugin;
    public Path otelAgent;
    public String collectorClasspath;
    public Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    public List<String> jvmOptions = new ArrayList<>();
    public boolean pin = true;
    public int benchCpu = 1;
    public int otherCpu = 0;
    public long timeoutSeconds = 900;
    public boolean keepRaw;
    public boolean spanCheck = true;
    public Path reportOnly;
    public boolean help;
    /** The bash completion script, when {@code --completion} asked for it; else null. */
    public String completionScript;

    public static MooBenchOptions parse(String... args) {
        MooBenchOptions o = new MooBenchOptions();
        CommandLineSpec<IllegalArgumentException> commandLine = o.commandLine();
        switch (commandLine.parse(args)) {
            case HELP -> o.help = true;
            case COMPLETION -> o.completionScript = commandLine.completionScript();
            default -> {
            }
        }
        o.applyDefaults();
        return o;
    }

    /** The help text with the lines every command shares, for {@code --help}. */
    static String help() {
        return CommandLineSpec.usageText(COMMAND, USAGE);
    }

    CommandLineSpec<IllegalArgumentException> commandLine() {
        CommandLineSpec<IllegalArgumentException> spec = CommandLineSpec.of(COMMAND, USAGE,
                IllegalArgumentException::new);
        spec.flag("--quick", () -> quick = true)
                .flag("--no-pin", () -> pin = false)
                .flag("--keep-raw", () -> keepRaw = true)
                .flag("--no-span-check", () -> spanCheck = false);
        option(spec, "--configs", "A,B,...", v -> configs = configList(v, "--configs"));
        option(spec, "--calls", "N", v -> calls = positive("--calls", v, 2));
        option(spec, "--depth", "N", v -> depth = positive("--depth", v, 1));
        option(spec, "--method-time", "NS", v -> methodTime = nonNegativeLong("--method-time", v));
        option(spec, "--runs", "N", v -> runs = positive("--runs", v, 1));
        option(spec, "--depths", "A,B,...", v -> depths = v.trim().equalsIgnoreCase("none") ? new ArrayList<>()
                : intList("--depths", v));
        option(spec, "--depth-configs", "A,...", v -> depthConfigs = configList(v, "--depth-configs"));
        option(spec, "--depth-runs", "N", v -> depthRuns = positive("--depth-runs", v, 1));
        option(spec, "--bins", "N", v -> bins = positive("--bins", v, 1));
        option(spec, "--out", "DIR", v -> out = Path.of(v));
        option(spec, "--argus-home", "DIR", v -> argusHome = Path.of(v));
        option(spec, "--agent-dir", "DIR", v -> agentDir = Path.of(v));
        option(spec, "--method-plugin", "JAR", v -> methodPlugin = Path.of(v));
        option(spec, "--otel-agent", "JAR", v -> otelAgent = Path.of(v));
        option(spec, "--collector-classpath", "CP", v -> collectorClasspath = v);
        option(spec, "--java", "PATH", v -> java = Path.of(v));
        option(spec, "--jvm-opt", "OPT", v -> jvmOptions.add(v));
        option(spec, "--bench-cpu", "N", v -> benchCpu = nonNegative("--bench-cpu", v));
        option(spec, "--other-cpu", "N", v -> otherCpu = nonNegative("--other-cpu", v));
        option(spec, "--timeout", "N", v -> timeoutSeconds = positive("--timeout", v, 1));
        option(spec, "--report-only", "DIR", v -> reportOnly = Path.of(v));
        return spec;
    }

    /** An option whose value is checked as a path or a number: a malformed path is a bad value too. */
    private static void option(CommandLineSpec<IllegalArgumentException> spec, String name, String label,
                               CommandLineSpec.ValueHandler<IllegalArgumentException> handler) {
        spec.option(name, label, v -> {
            try {
                handler.accept(v);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("invalid value for " + name + ": '" + v + "' (" + e.getReason()
                        + ")");
            }
        });
    }

    private void applyDefaults() {
        if (calls == null) {
            calls = quick ? 200_000 : 2_000_000;
        }
        if (runs == null) {
            runs = quick ? 1 : 3;
        }
        if (depths == null) {
            depths = quick ? new ArrayList<>(List.of(1, 4)) : new ArrayList<>(List.of(1, 2, 4, 8, 16, 32));
        }
        if (depthRuns == null) {
            depthRuns = runs;
        }
        if (configs.isEmpty()) {
            throw new IllegalArgumentException("--configs is empty");
        }
        if (!depths.isEmpty() && depths.size() < 2) {
            throw new IllegalArgumentException("--depths needs two or more depths for the linear fit, or 'none'");
        }
        if (!depths.isEmpty() && !depthConfigs.contains(BenchConfig.T)) {
            throw new IllegalArgumentException("--depth-configs must include T: overhead is measured against it");
        }
        if (pin && benchCpu == otherCpu) {
            throw new IllegalArgumentException("--bench-cpu and --other-cpu must differ (or use --no-pin)");
        }
    }

    private static List<BenchConfig> configList(String value, String option) {
        List<BenchConfig> out = new ArrayList<>();
        for (String part : value.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            BenchConfig c;
            try {
                c = BenchConfig.parse(part);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage());
            }
            if (!out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private static List<Integer> intList(String option, String value) {
        List<Integer> out = new ArrayList<>();
        for (String part : value.split(",")) {
            if (!part.isBlank()) {
                int v = positive(option, part.trim(), 1);
                if (!out.contains(v)) {
                    out.add(v);
                }
            }
        }
        out.sort(null);
        return out;
    }

    private static int positive(String option, String value, int min) {
        try {
            int v = Integer.parseInt(value.trim().replace("_", ""));
            if (v < min) {
                throw new IllegalArgumentException(option + " must be at least " + min + ": " + value);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " expects a whole number: " + value);
        }
    }

    private static int nonNegative(String option, String value) {
        return positive(option, value, 0);
    }

    private static long nonNegativeLong(String option, String value) {
        try {
            long v = Long.parseLong(value.trim().replace("_", ""));
            if (v < 0) {
                throw new IllegalArgumentException(option + " must not be negative: " + value);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " expects a whole number: " + value);
        }
    }
}
