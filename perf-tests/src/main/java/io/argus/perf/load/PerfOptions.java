package io.argus.perf.load;

import io.argus.cli.CommandLineSpec;
import io.argus.perf.load.run.Placement;
import io.argus.perf.load.druid.DruidTarget;
import io.argus.perf.load.target.SampleTarget;
import io.argus.perf.load.target.SpringTarget;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of {@code argus-perf}. Parsing never exits; it throws {@link BadArguments}. */
public final class PerfOptions {

    public static final String COMMAND = "argus-perf";
    public static final List<String> TARGETS = List.of("sample", "druid", "spring");

    public String target = "sample";
    /** The load endpoint; null until parsed, then the target's first endpoint unless given. */
    public String endpoint;
    public List<String> scenarios = new ArrayList<>(Scenario.DEFAULTS.stream().map(Scenario::name).toList());
    public String mode = "default";
    public int startupRuns = 5;
    public int rounds = 10;
    public int roundSize = 1000;
    public int discardRounds = 1;
    /** Load launches per scenario, interleaved across scenarios. */
    public int loadPasses = 1;
    /** Druid target: where its jars are cached (default ~/.cache/argus-perf/druid-<version>). */
    public Path druidHome;
    /** Druid target: generated rows to ingest. */
    public int druidRows = 20_000;
    public int gatlingUsers = 8;
    public int gatlingSeconds = 30;
    /** How long a process is probed after its first answer before it counts as never observed. */
    public int observeTimeoutSeconds = 60;
    /** The MooBench configuration of the regression section: short, or none. */
    public String moobench = "short";
    public static final List<String> MOOBENCH = List.of("short", "none");
    public Path argusHome;
    public Path peersDir;
    public Path out = Path.of("perf-tests/target/perf-report");
    public Path java;
    public List<String> jvmOptions = new ArrayList<>();
    /** shared (nothing pinned) or separate (targets on one half of the CPUs, collector and load on the other). */
    public String placement = Placement.SHARED;
    public boolean help;
    /** The bash completion script, when {@code --completion} asked for it; else null. */
    public String completionScript;
    /** Re-render the reports of an earlier run from its results.json instead of measuring. */
    public Path reportOnly;

    /** Thrown for a bad command line; the message says what is wrong. Exit code 2. */
    public static final class BadArguments extends Exception {
        public BadArguments(String message) {
            super(message);
        }
    }

    public static String usage() {
        return """
                usage: argus-perf [options]
                  --target NAME           target application: sample (default), druid (an Apache Druid
                                          nano cluster; its jars are fetched with Maven on first use) or
                                          spring (a Spring Boot 3.5 PetClinic-like service, java -jar)
                  --endpoint NAME         the load endpoint. sample: call (front->back, default), ping, cpu;
                                          druid: sql (the seed's query through the router, default) or
                                          health (GET /status/health on the coordinator-overlord);
                                          spring: owner (/owners/1, JPA, default) or owners (a search)
                  --scenarios A,B,...     any of baseline,jvm-only,default-0,default-0-cold,default-100,
                                          default-100-deferred,otel,otel-otlp,otel-otlp-grpc,elastic,
                                          transformer-floor (default: all but otel-otlp-grpc, default-0-cold
                                          and transformer-floor; baseline is needed for the comparisons)
                  --quick                 a first look / CI: 2 startup runs, 3 rounds of 200 (1 discarded),
                                          5 s Gatling. Druid: 1 launch per scenario, 3 rounds of 500, 10 s Gatling
                  --full                  the documented figures: 5 startup runs, 3 load passes of 12 rounds of
                                          1000 (first 6 of each discarded), 60 s Gatling. Druid: 1 startup run,
                                          2 load passes of 6 rounds of 1000 (first discarded), 60 s Gatling
                  --startup-runs N        launches per scenario, interleaved A B C ... A B C (default 5)
                  --rounds N              closed-loop rounds (default 10)
                  --round-size N          requests per round (default 1000)
                  --discard N             first rounds of each load pass thrown away (default 1; --full: half)
                  --load-passes N         fresh load launches per scenario, interleaved A B C ... A B C; each
                                          also gives a start-up sample; Gatling runs in the last (default 1)
                  --druid-home DIR        Druid's cached jars (default ~/.cache/argus-perf/druid-<version>,
                                          or $ARGUS_PERF_CACHE/druid-<version>)
                  --druid-rows N          generated wikipedia rows to ingest (default 20000)
                  --gatling-users N       Gatling concurrency (default 8)
                  --gatling-seconds N     Gatling duration per scenario, 0 to skip Gatling (default 30)
                  --observe-timeout S     how long a process of a tracing scenario is probed after its first
                                          answer before it counts as never observed (default 60)
                  --moobench short|none   the per-call regression check at the end of the run: a short MooBench
                                          (T, T+I, T+I+C, one JVM of 1,000,000 calls each, 200,000 with
                                          --quick; default short)
                  --argus-home DIR        the Argus distribution (agent/, collector/, perf/)
                  --peers DIR             folder with opentelemetry-javaagent.jar and elastic-apm-agent.jar
                                          (default: <argus-home>/perf/peers)
                  --out DIR               report folder (default perf-tests/target/perf-report)
                  --java PATH             java executable for the target JVMs (default: this JVM's)
                  --jvm-opt OPTION        extra JVM option for every target JVM (repeatable)
                  --placement P           shared (default: nothing pinned, all processes share the CPUs) or
                                          separate (with taskset: the target processes on CPU 0, the collector,
                                          the closed loop and Gatling on CPU 1, as if on another host; on more
                                          CPUs the first and second half), for every scenario alike
                  --report-only DIR       rewrite report.md/report.html (and the statistics) from
                                          DIR/results.json of an earlier run, measuring nothing
                  --help                  this text
                Presets (--quick/--full) set defaults; explicit options win wherever they appear.
                Exit codes: 0 all scenarios measured, 1 a scenario or phase failed, 2 bad arguments.""";
    }

    public static PerfOptions parse(String[] args) throws BadArguments {
        PerfOptions o = new PerfOptions();
        // presets first, so that explicit options override them whatever the order; they depend on the target
        boolean druid = false;
        for (int i = 0; i < args.length; i++) {
            druid |= args[i].equals("--target=druid") || args[i].equals("--target") && i + 1 < args.length
                    && args[i + 1].equals("druid");
        }
        for (String a : args) {
            if (a.equals("--quick") || a.equals("--full")) {
                if (!o.mode.equals("default") && !o.mode.equals(a.substring(2))) {
                    throw new BadArguments("--quick and --full exclude each other");
                }
                o.preset(a.substring(2), druid);
            }
        }
        boolean[] discardGiven = {false};
        CommandLineSpec<BadArguments> commandLine = o.commandLine(discardGiven);
        switch (commandLine.parse(args)) {
            case HELP -> o.help = true;
            case COMPLETION -> o.completionScript = commandLine.completionScript();
            default -> {
            }
        }
        List<String> endpoints = switch (o.target) {
            case "druid" -> DruidTarget.ENDPOINTS;
            case "spring" -> SpringTarget.ENDPOINTS;
            default -> SampleTarget.ENDPOINTS;
        };
        if (o.endpoint == null) {
            o.endpoint = endpoints.get(0);
        } else if (!endpoints.contains(o.endpoint)) {
            throw new BadArguments("unknown endpoint '" + o.endpoint + "' for target " + o.target + "; known: "
                    + String.join(", ", endpoints));
        }
        if (o.mode.equals("full") && !discardGiven[0] && !o.target.equals("druid")) {
            o.discardRounds = o.rounds / 2;
        }
        if (o.rounds > 0 && o.discardRounds >= o.rounds) {
            throw new BadArguments("--discard " + o.discardRounds + " leaves no measured round out of --rounds "
                    + o.rounds);
        }
        if (o.java != null && !Files.isExecutable(o.java)) {
            throw new BadArguments("--java " + o.java + " is not an executable");
        }
        if (o.argusHome != null && !Files.isDirectory(o.argusHome)) {
            throw new BadArguments("--argus-home " + o.argusHome + " is not a folder");
        }
        if (o.peersDir != null && !Files.isDirectory(o.peersDir)) {
            throw new BadArguments("--peers " + o.peersDir + " is not a folder");
        }
        return o;
    }

    private void preset(String name, boolean druid) {
        mode = name;
        if (druid) {
            // a Druid launch costs minutes (six JVMs, an ingestion): start-up samples come from the
            // load launches as well, and the seed's first round of each launch is discarded
            startupRuns = name.equals("quick") ? 0 : 1;
            loadPasses = name.equals("quick") ? 1 : 2;
            rounds = name.equals("quick") ? 3 : 6;
            roundSize = name.equals("quick") ? 500 : 1000;
            discardRounds = 1;
            gatlingSeconds = name.equals("quick") ? 10 : 60;
        } else if (name.equals("quick")) {
            startupRuns = 2;
            rounds = 3;
            roundSize = 200;
            discardRounds = 1;
            gatlingSeconds = 5;
        } else {
            startupRuns = 5;
            loadPasses = 3;
            rounds = 12;
            roundSize = 1000;
            gatlingSeconds = 60;
        }
    }

    /** The options, each applied as it comes; the presets are applied before, in {@link #parse}. */
    CommandLineSpec<BadArguments> commandLine(boolean[] discardGiven) {
        CommandLineSpec<BadArguments> spec = CommandLineSpec.of(COMMAND, usage(), BadArguments::new);
        spec.flag("--quick", () -> {
        }).flag("--full", () -> {
        });
        spec.option("--target", "NAME", v -> {
            target = value("--target", v);
            if (!TARGETS.contains(target)) {
                throw new BadArguments("unknown target '" + target + "'; known: " + String.join(", ", TARGETS));
            }
        });
        spec.option("--endpoint", "NAME", v -> endpoint = value("--endpoint", v));
        spec.option("--scenarios", "A,B,...", v -> scenarios = scenarios(value("--scenarios", v)));
        spec.option("--startup-runs", "N", v -> startupRuns = integer(v, "--startup-runs", 0));
        spec.option("--rounds", "N", v -> rounds = integer(v, "--rounds", 0));
        spec.option("--round-size", "N", v -> roundSize = integer(v, "--round-size", 1));
        spec.option("--discard", "N", v -> {
            discardRounds = integer(v, "--discard", 0);
            discardGiven[0] = true;
        });
        spec.option("--load-passes", "N", v -> loadPasses = integer(v, "--load-passes", 1));
        spec.option("--druid-home", "DIR", v -> druidHome = Path.of(value("--druid-home", v)));
        spec.option("--druid-rows", "N", v -> druidRows = integer(v, "--druid-rows", 1000));
        spec.option("--gatling-users", "N", v -> gatlingUsers = integer(v, "--gatling-users", 1));
        spec.option("--gatling-seconds", "N", v -> gatlingSeconds = integer(v, "--gatling-seconds", 0));
        spec.option("--observe-timeout", "S", v -> observeTimeoutSeconds = integer(v, "--observe-timeout", 1));
        spec.option("--moobench", "short|none", v -> {
            moobench = value("--moobench", v);
            if (!MOOBENCH.contains(moobench)) {
                throw new BadArguments("unknown --moobench '" + moobench + "'; known: " + String.join(", ", MOOBENCH));
            }
        });
        spec.option("--argus-home", "DIR", v -> argusHome = Path.of(value("--argus-home", v)));
        spec.option("--peers", "DIR", v -> peersDir = Path.of(value("--peers", v)));
        spec.option("--out", "DIR", v -> out = Path.of(value("--out", v)));
        spec.option("--java", "PATH", v -> java = Path.of(value("--java", v)));
        spec.option("--jvm-opt", "OPTION", v -> jvmOptions.add(value("--jvm-opt", v)));
        spec.option("--placement", "P", v -> {
            placement = value("--placement", v);
            if (!Placement.NAMES.contains(placement)) {
                throw new BadArguments("unknown placement '" + placement + "'; known: "
                        + String.join(", ", Placement.NAMES));
            }
        });
        spec.option("--report-only", "DIR", v -> {
            reportOnly = Path.of(value("--report-only", v));
            if (!Files.isRegularFile(reportOnly.resolve("results.json"))) {
                throw new BadArguments("--report-only " + reportOnly + " has no results.json");
            }
        });
        return spec;
    }

    /** The help text with the lines every command shares, for {@code --help}. */
    public static String help() {
        return CommandLineSpec.usageText(COMMAND, usage());
    }

    /** An option's value; an empty one ({@code --out=}) is a missing one. */
    private static String value(String name, String value) throws BadArguments {
        if (value.isEmpty()) {
            throw new BadArguments(name + " needs a value");
        }
        return value;
    }

    private static int integer(String text, String name, int min) throws BadArguments {
        try {
            int v = Integer.parseInt(text.trim());
            if (v < min) {
                throw new BadArguments(name + " must be at least " + min + ", got " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new BadArguments(name + " needs a whole number, got '" + text + "'");
        }
    }

    private static List<String> scenarios(String text) throws BadArguments {
        List<String> out = new ArrayList<>();
        for (String s : text.split(",")) {
            String name = s.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (Scenario.byName(name) == null) {
                throw new BadArguments("unknown scenario '" + name + "'; known: " + String.join(",", Scenario.names()));
            }
            if (out.contains(name)) {
                throw new BadArguments("scenario '" + name + "' given twice");
            }
            out.add(name);
        }
        if (out.isEmpty()) {
            throw new BadArguments("--scenarios needs at least one scenario");
        }
        return out;
    }
}
