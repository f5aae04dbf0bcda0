package io.argus.perf.load;

import io.argus.perf.floor.TransformerFloorJar;
import io.argus.perf.harness.ArgusHome;
import io.argus.perf.harness.FileTrees;
import io.argus.perf.harness.HostFacts;
import io.argus.cluster.process.ManagedProcess;
import io.argus.perf.harness.proc.ProcStats;
import io.argus.perf.harness.run.CollectorProcess;
import io.argus.perf.harness.run.StartObserver;
import io.argus.perf.load.model.RunResults;
import io.argus.perf.load.model.RunResults.ClosedLoop;
import io.argus.perf.load.model.RunResults.CollectorCheck;
import io.argus.perf.load.model.RunResults.ProcessResources;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.model.RunResults.Round;
import io.argus.perf.load.model.RunResults.ScenarioResult;
import io.argus.perf.load.model.RunResults.StartupLaunch;
import io.argus.perf.load.run.GatlingRunner;
import io.argus.perf.load.run.Launcher;
import io.argus.perf.load.run.MooBenchCheckRun;
import io.argus.perf.load.run.Placement;
import io.argus.perf.load.run.ResourceMeter;
import io.argus.perf.load.run.RunningTarget;
import io.argus.perf.load.stats.Analysis;
import io.argus.perf.load.target.Target;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import io.argus.perf.harness.http.Http;
import io.argus.perf.harness.http.RequestSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * One run of the suite: the interleaved start-up passes, then per scenario a fresh launch for
 * the load phase (closed loop, Gatling, resources, collector check), then the statistics. A
 * failure inside a scenario is recorded in its result and the run goes on with the next one.
 */
public final class PerfRun {

    private final PerfOptions options;
    private final Target target;
    private final ArgusHome home;
    private final Path peers;
    private final Path java;
    private final Path out;
    private final RunFiles runFiles;
    private final PrintStream log;
    private final List<Scenario> scenarios = new ArrayList<>();
    private final List<String> plugins;
    private final ProcStats procStats;
    private final Placement placement;
    private final RunResults results = new RunResults();
    private final Map<String, ScenarioResult> byName = new LinkedHashMap<>();

    public PerfRun(PerfOptions options, Target target, ArgusHome home, Path peers, Path java, PrintStream log) {
        this.options = options;
        this.target = target;
        this.home = home;
        this.peers = peers;
        this.java = java;
        this.out = options.out.toAbsolutePath().normalize();
        this.runFiles = RunFiles.in(out);
        this.log = log;
        options.scenarios.forEach(n -> scenarios.add(Scenario.byName(n)));
        this.plugins = home.pluginNames();
        Path bin = java.toAbsolutePath().getParent();
        this.procStats = new ProcStats(bin);
        this.placement = Placement.of(options.placement, Runtime.getRuntime().availableProcessors());
    }

    public RunResults run() throws Exception {
        Instant start = Instant.now();
        results.tool = "argus-perf " + version();
        results.startedAt = start.toString();
        fillSettings();
        results.machine = MachineFacts.collect(java);
        results.machine.argusVersion = home.agentVersion();
        for (Scenario s : scenarios) {
            ScenarioResult r = new ScenarioResult();
            r.name = s.name();
            r.description = s.description();
            r.agent = agentLabel(s);
            r.observable = s.observable();
            r.readyOnlyReason = s.readyOnlyReason();
            for (String service : target.serviceNames()) {
                r.jvmOptions.put(service, s.jvmOptions(service, home, peers, "127.0.0.1:<collector ingest port>",
                        "http://127.0.0.1:<collector OTLP/HTTP port>", plugins, runFiles));
            }
            results.scenarios.add(r);
            byName.put(s.name(), r);
        }
        Files.createDirectories(out);
        FileTrees.deleteRecursively(runFiles.classCacheDir());
        if (scenarios.contains(Scenario.TRANSFORMER_FLOOR)) {
            TransformerFloorJar.write(runFiles.transformerFloorAgent());
        }
        say("argus-perf: target %s (%s), scenarios %s, mode %s, placement %s; report in %s", target.name(),
                options.endpoint, options.scenarios, options.mode, placement.isSeparate() ? "separate (targets on CPU "
                        + placement.targetCpus() + ", collector and load on CPU " + placement.loadCpus() + ")" : "shared",
                out);

        // separate: the harness is the closed loop's load generator, so it moves to the load CPUs for the whole run
        String harnessCpus = placement.pinHarness();
        try {
            startupPhase();
            loadPhases();
        } finally {
            Placement.restoreHarness(harnessCpus);
        }
        if (options.moobench.equals("short")) {
            results.moobench = new MooBenchCheckRun(home, java, out, options.mode.equals("quick")).run();
            say("moobench %s", results.moobench.error == null ? MooBenchCheckRun.describe(results.moobench)
                    : "FAILED: " + results.moobench.error);
        }

        for (ScenarioResult r : results.scenarios) {
            boolean measured = !r.startup.isEmpty() && r.startup.stream().anyMatch(l -> l.error == null)
                    || r.closedLoop != null && !r.closedLoop.rounds.isEmpty();
            if (!measured) {
                r.status = "failed";
            } else if (!r.errors.isEmpty()) {
                r.status = "partial";
            }
        }
        results.comparisons = Analysis.compare(results);
        if (results.scenario("baseline") == null) {
            results.notes.add("No baseline scenario in this run: no ratios, tests or verdicts.");
        }
        results.machine.loadAverageEnd = HostFacts.loadAverage();
        Instant end = Instant.now();
        results.finishedAt = end.toString();
        results.durationSeconds = Duration.between(start, end).toMillis() / 1000.0;
        return results;
    }

    public RunResults results() {
        return results;
    }

    private void fillSettings() {
        RunResults.Settings st = results.settings;
        st.target = target.name();
        st.endpoint = options.endpoint;
        st.mode = options.mode;
        st.scenarios = new ArrayList<>(options.scenarios);
        st.startupRuns = options.startupRuns;
        st.rounds = options.rounds;
        st.roundSize = options.roundSize;
        st.discardRounds = options.discardRounds;
        st.loadPasses = options.loadPasses;
        st.gatlingUsers = options.gatlingUsers;
        st.gatlingSeconds = options.gatlingSeconds;
        st.observeTimeoutSeconds = options.observeTimeoutSeconds;
        st.moobench = options.moobench;
        st.java = java.toString();
        st.argusHome = home.root() == null ? null : home.root().toString();
        st.peersDir = peers.toString();
        st.outDir = out.toString();
        st.extraJvmOptions = new ArrayList<>(options.jvmOptions);
        st.argusPlugins = new ArrayList<>(plugins);
        st.placement = placement.name();
        st.targetCpus = placement.targetCpus();
        st.loadCpus = placement.loadCpus();
        st.placementNote = placement.describe();
        results.notes.add("Target: " + target.description());
    }

    private String agentLabel(Scenario s) {
        return switch (s.agent()) {
            case "argus" -> "Argus " + home.agentVersion();
            case "opentelemetry" -> "OpenTelemetry Java agent " + peerVersion("Argus-Peer-OpenTelemetry-Version", "2.33.1");
            case "elastic" -> "Elastic APM Java agent " + peerVersion("Argus-Peer-Elastic-Version", "1.55.1");
            case "transformer-floor" -> "a class-file transformer that changes nothing";
            default -> "none";
        };
    }

    private static String peerVersion(String attribute, String fallback) {
        return OwnManifest.attribute(attribute, fallback);
    }

    static String version() {
        String v = PerfRun.class.getPackage() == null ? null : PerfRun.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    // ------------------------------------------------------------------------------------ startup

    private void startupPhase() {
        if (options.startupRuns == 0) {
            return;
        }
        say("== startup: %d interleaved pass(es) over %d scenario(s)", options.startupRuns, scenarios.size());
        CollectorProcess collector = null;
        try {
            if (scenarios.stream().anyMatch(Scenario::needsCollector)) {
                try {
                    collector = startCollector(out.resolve("work/collector-startup"), out.resolve("logs/startup/collector.log"),
                            scenarios.stream().anyMatch(PerfRun::exportsOtlp));
                    say("collector for the start-up passes: ingest %s", collector.ingestAddress());
                } catch (Exception e) {
                    for (Scenario s : scenarios) {
                        if (s.needsCollector()) {
                            byName.get(s.name()).errors.add("startup: collector failed to start: " + e.getMessage());
                        }
                    }
                    say("collector failed to start: %s", e.getMessage());
                }
            }
            for (int pass = 1; pass <= options.startupRuns; pass++) {
                for (Scenario s : scenarios) {
                    ScenarioResult r = byName.get(s.name());
                    StartupLaunch launch = new StartupLaunch();
                    launch.pass = pass;
                    launch.sequence = ++launchSequence;
                    if (s.needsCollector() && collector == null) {
                        launch.error = "no collector";
                        r.startup.add(launch);
                        continue;
                    }
                    String tag = "p" + pass + "-" + s.name();
                    try (RunningTarget t = new Launcher(java, options.jvmOptions, placement.targetPrefix()).launch(target,
                            scenarioOptions(s, collector), out.resolve("work/startup/" + tag),
                            out.resolve("logs/startup"), tag, false, observer(s, collector))) {
                        verifyAgent(s, t);
                        totals(launch, t.startups());
                        say("startup pass %d/%d %-11s %s", pass, options.startupRuns, s.name(), describe(t.startups()));
                    } catch (Exception | LinkageError e) {
                        launch.error = e.getMessage();
                        r.errors.add("startup pass " + pass + ": " + firstLine(e));
                        say("startup pass %d/%d %-11s FAILED: %s", pass, options.startupRuns, s.name(), firstLine(e));
                    }
                    r.startup.add(launch);
                }
            }
        } finally {
            if (collector != null) {
                collector.close();
            }
        }
    }

    /** Probes the scenario's processes until observed, where it can be observed and a collector listens. */
    private StartObserver observer(Scenario s, CollectorProcess collector) {
        return s.observable() && collector != null
                ? new StartObserver(StartObserver.of(collector), Duration.ofSeconds(options.observeTimeoutSeconds)) : null;
    }

    /** Sums over the processes the scenario's agent goes on; the others are the same in every scenario. */
    static void totals(StartupLaunch launch, List<ProcessStartup> startups) {
        launch.processes.addAll(startups);
        List<ProcessStartup> measured = startups.stream().filter(p -> p.instrumented).toList();
        launch.totalReadyMs = measured.stream().mapToDouble(p -> p.readyMs).sum();
        boolean allLogged = measured.stream().allMatch(p -> p.startedLogMs != null);
        launch.totalStartedLogMs = allLogged ? measured.stream().mapToDouble(p -> p.startedLogMs).sum() : null;
        boolean probed = !measured.isEmpty()
                && measured.stream().allMatch(p -> p.observedMs != null || p.observeGaveUpMs != null);
        if (probed) {
            // a process never observed counts with the time its probing gave up: a lower bound
            launch.totalObservedMs = measured.stream()
                    .mapToDouble(p -> p.observedMs != null ? p.observedMs : p.observeGaveUpMs).sum();
            launch.neverObserved = (int) measured.stream().filter(p -> p.observedMs == null).count();
        }
    }

    private static String describe(List<ProcessStartup> startups) {
        StringBuilder b = new StringBuilder();
        for (ProcessStartup p : startups) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(p.service).append(' ').append(String.format(Locale.ROOT, "%.0f ms", p.readyMs));
            if (p.startedLogMs != null) {
                b.append(" (Started @").append(p.startedLogMs).append("ms)");
            }
            if (p.observedMs != null) {
                b.append(String.format(Locale.ROOT, ", observed %.0f ms (%d answered unobserved)", p.observedMs,
                        p.probesUnobserved));
            } else if (p.observeGaveUpMs != null) {
                b.append(", ").append(p.observation);
            }
        }
        return b.toString();
    }

    /**
     * An Argus scenario whose agent did not start would silently measure the baseline (the agent
     * lets the application run without it): every process must have printed the start line.
     */
    private static void verifyAgent(Scenario s, RunningTarget t) throws java.io.IOException {
        if (!s.isArgus()) {
            return;
        }
        for (ProcessStartup p : t.startups()) {
            if (p.instrumented && p.agentInitMs == null) {
                throw new java.io.IOException("the Argus agent did not print '[argus] Argus <version> started in N ms' on "
                        + p.service + (p.agentLine == null ? "" : "; it printed: " + p.agentLine) + " (see " + p.log + ")");
            }
        }
    }

    /** A peer agent that needs the collector sends to its OTLP/HTTP receiver. */
    private static boolean exportsOtlp(Scenario s) {
        return s.isPeer() && s.needsCollector();
    }

    private CollectorProcess startCollector(Path dataDir, Path log, boolean otlp) throws IOException, InterruptedException {
        return CollectorProcess.start(CollectorProcess.Launch.script(home.collectorScript(), javaHome())
                .prefixed(placement.loadPrefix()), dataDir, log, Duration.ofSeconds(90), otlp);
    }

    private Function<String, List<String>> scenarioOptions(Scenario s, CollectorProcess collector) {
        String address = collector == null ? "127.0.0.1:9898" : collector.ingestAddress();
        boolean grpc = "grpc".equals(s.otlpProtocol());
        String otlp = collector == null ? (grpc ? "http://127.0.0.1:4317" : "http://127.0.0.1:4318")
                : grpc ? collector.otlpGrpcEndpoint() : collector.otlpEndpoint();
        return service -> s.jvmOptions(service, home, peers, address, otlp, plugins, runFiles);
    }

    private Path javaHome() {
        return Path.of(System.getProperty("java.home"));
    }

    // ------------------------------------------------------------------------------------ load

    /**
     * The load launches: {@code loadPasses} passes, each launching every scenario once in turn
     * (A B C ... A B C), so that drift of the machine spreads over all scenarios instead of
     * landing between them. Every launch also gives a start-up sample. Gatling runs in the last
     * pass only.
     */
    private void loadPhases() {
        if (options.rounds == 0 && options.gatlingSeconds == 0) {
            return;
        }
        for (int pass = 1; pass <= options.loadPasses; pass++) {
            for (Scenario s : scenarios) {
                loadPhase(s, pass);
            }
        }
    }

    private void loadPhase(Scenario s, int pass) {
        ScenarioResult r = byName.get(s.name());
        boolean last = pass == options.loadPasses;
        say("== load: %s (pass %d/%d)", s.name(), pass, options.loadPasses);
        CollectorProcess collector = null;
        StartupLaunch launch = new StartupLaunch();
        launch.pass = pass;
        launch.phase = "load";
        launch.sequence = ++launchSequence;
        try {
            if (s.needsCollector()) {
                collector = startCollector(out.resolve("work/collector-" + s.name() + "-p" + pass),
                        out.resolve("logs/load/" + s.name() + "-p" + pass + "-collector.log"), exportsOtlp(s));
            }
            String tag = options.loadPasses == 1 ? s.name() : s.name() + "-p" + pass;
            try (RunningTarget t = new Launcher(java, options.jvmOptions, placement.targetPrefix()).launch(target,
                    scenarioOptions(s, collector), out.resolve("work/load/" + tag), out.resolve("logs/load"), tag, true,
                    observer(s, collector));
                 ResourceMeter meter = new ResourceMeter(t.processes(), collector)) {
                verifyAgent(s, t);
                totals(launch, t.startups());
                r.startup.add(launch);
                say("started %s", describe(t.startups()));
                // before anything is measured: the attach's own class loading lands in the warm-up rounds
                meter.attach();
                // afterReady's smoke and load requests, and the start-up probes of the service the traces are counted of
                long probes = probes(t.startups(), target.tracedServices().get(0));
                long sent = 2 + probes;
                LoadSnapshot before = collector == null ? null : LoadSnapshot.of(collector);
                long loadRequests = closedLoop(s, r, t, pass, meter);
                if (options.gatlingSeconds > 0 && last) {
                    loadRequests += gatling(s, r, t, meter, collector);
                }
                sent += loadRequests;
                if (last) {
                    finalResources(r, t);
                }
                if (collector != null && last) {
                    checkCollector(s, r, collector, sent, before, loadRequests, t.plan().loadRequest());
                    r.collector.probeRequests = probes;
                }
            }
        } catch (Exception | LinkageError e) {
            if (!r.startup.contains(launch)) {
                launch.error = firstLine(e);
                r.startup.add(launch);
            }
            r.errors.add("load pass " + pass + ": " + firstLine(e));
            say("load %s FAILED: %s", s.name(), e.getMessage());
        } finally {
            if (collector != null) {
                collector.close();
            }
        }
    }

    /** The probe requests one process of a launch answered, each with a sampled traceparent: its polls and probes. */
    private static long probes(List<ProcessStartup> startups, String service) {
        return startups.stream().filter(p -> p.service.equals(service))
                .mapToLong(p -> (p.probesSent == null ? 1 : p.probesSent)
                        + (p.answeredBeforeReady == null ? 0 : p.answeredBeforeReady)).sum();
    }

    /** Position of a launch in the whole run, start-up passes first, then load passes. */
    private int launchSequence;

    /** @return requests sent */
    private long closedLoop(Scenario s, ScenarioResult r, RunningTarget t, int pass, ResourceMeter meter)
            throws Exception {
        if (options.rounds == 0) {
            return 0;
        }
        ClosedLoop cl = r.closedLoop;
        if (cl == null) {
            cl = new ClosedLoop();
            cl.request = t.plan().loadRequest().describe();
            cl.roundSize = options.roundSize;
            cl.discardRounds = options.discardRounds;
            cl.passes = options.loadPasses;
            r.closedLoop = cl;
        }
        r.resources.clear();
        io.argus.perf.load.run.ClosedLoop loop = new io.argus.perf.load.run.ClosedLoop(t.plan().loadRequest());
        Map<Long, Double> cpu0 = new LinkedHashMap<>();
        Map<Long, Map<String, Double>> gc0 = new LinkedHashMap<>();
        long measured = 0;
        Map<String, Long> allocated = new LinkedHashMap<>();
        ResourceMeter.Reading boundary = meter.read();
        for (int i = 1; i <= options.rounds; i++) {
            boolean discarded = i <= options.discardRounds;
            if (i == options.discardRounds + 1) {
                for (ManagedProcess p : t.processes()) {
                    gc0.put(p.pid(), procStats.jstatGc(p.pid()));
                    cpu0.put(p.pid(), ProcStats.cpuMillis(p.pid()));
                }
            }
            Round round = loop.runRound(i, options.roundSize, discarded);
            round.pass = pass;
            ResourceMeter.Reading next = meter.read();
            meter.fill(round, boundary, next);
            boundary = next;
            cl.rounds.add(round);
            if (!discarded) {
                measured += round.requests;
                round.allocatedBytes.forEach((k, v) -> allocated.merge(k, v, Long::sum));
            }
            say("round %2d/%d %-11s%s min %.3f max %.3f avg %.3f P95 %.3f P99 %.3f total %.1f ms QPS %.1f errors %d; %s",
                    i, options.rounds, s.name(), discarded ? " (discarded)" : "", round.minMs, round.maxMs, round.avgMs,
                    round.p95Ms, round.p99Ms, round.totalMs, round.qps, round.errors, perRequest(round));
        }
        for (int k = 0; k < t.processes().size(); k++) {
            ManagedProcess p = t.processes().get(k);
            double cpu1 = ProcStats.cpuMillis(p.pid());
            Map<String, Double> gc1 = procStats.jstatGc(p.pid());
            ProcessResources pr = new ProcessResources();
            pr.service = p.name();
            pr.pid = p.pid();
            pr.instrumented = k >= t.startups().size() || t.startups().get(k).instrumented;
            Double c0 = cpu0.get(p.pid());
            pr.cpuMsMeasured = c0 == null || c0 < 0 || cpu1 < 0 ? 0 : cpu1 - c0;
            pr.measuredRequests = measured;
            pr.cpuUsPerRequest = measured == 0 ? 0 : pr.cpuMsMeasured * 1000 / measured;
            Long bytes = allocated.get(p.name());
            pr.allocBytesPerRequest = bytes == null || measured == 0 ? null : (double) bytes / measured;
            pr.allocSource = meter.allocationSource().get(p.name());
            Integer ended = meter.threadsEnded().get(p.name());
            if (ended != null) {
                pr.note = ended + " thread(s) ended inside a window: their CPU there came from /proc/<pid>/stat ticks"
                        + " and their allocation since the previous reading is missing";
            }
            Map<String, Double> g0 = gc0.get(p.pid());
            if (g0 != null && gc1 != null) {
                pr.gcCountMeasured = ProcStats.gcCount(gc1) - ProcStats.gcCount(g0);
                pr.gcTimeMsMeasured = ProcStats.gcTimeMs(gc1) - ProcStats.gcTimeMs(g0);
            }
            r.resources.add(pr);
        }
        return (long) options.rounds * options.roundSize;
    }

    /** One round's CPU and allocation per request, for the console. */
    private static String perRequest(Round round) {
        if (round.requests == 0 || round.cpuMs.isEmpty()) {
            return "no CPU figures";
        }
        StringBuilder b = new StringBuilder("per request:");
        for (Map.Entry<String, Double> e : round.cpuMs.entrySet()) {
            b.append(String.format(Locale.ROOT, " %s %.1f µs", e.getKey(), e.getValue() * 1000 / round.requests));
            Long bytes = round.allocatedBytes.get(e.getKey());
            if (bytes != null) {
                b.append(String.format(Locale.ROOT, " %.1f KB", bytes / 1024.0 / round.requests));
            }
        }
        if (round.collectorCpuMs != null && round.collectorSpansStored != null && round.collectorSpansStored > 0) {
            b.append(String.format(Locale.ROOT, "; collector %.1f µs/span", round.collectorCpuMs * 1000 / round.collectorSpansStored));
        }
        return b.toString();
    }

    /** @return requests sent */
    private long gatling(Scenario s, ScenarioResult r, RunningTarget t, ResourceMeter meter, CollectorProcess collector)
            throws Exception {
        Path dir = out.resolve("gatling/" + s.name());
        String cp = GatlingRunner.findClassPath(home.root(), peers);
        if (cp == null) {
            throw new java.io.IOException("Gatling not found (neither on the class path nor in <peers>/gatling)");
        }
        ResourceMeter.Reading[] readings = new ResourceMeter.Reading[2];
        RunResults.Gatling g = new GatlingRunner(Path.of(System.getProperty("java.home"), "bin", "java"), cp,
                placement.loadPrefix())
                .run(t.plan().loadRequest(), options.gatlingUsers, options.gatlingSeconds, dir,
                        out.resolve("logs/load/" + s.name() + "-gatling.log"), "argus-perf " + s.name(),
                        new GatlingRunner.Window() {
                            @Override
                            public void started() {
                                readings[0] = meter.read();
                            }

                            @Override
                            public void ended() {
                                readings[1] = meter.read();
                            }
                        });
        // the simulation's window: one figure per scenario
        Round window = new Round();
        meter.fill(window, readings[0], readings[1]);
        if (g.requests > 0) {
            for (ProcessResources pr : r.resources) {
                Double ms = window.cpuMs.get(pr.service);
                Long bytes = window.allocatedBytes.get(pr.service);
                pr.gatlingCpuUsPerRequest = ms == null ? null : ms * 1000 / g.requests;
                pr.gatlingAllocBytesPerRequest = bytes == null ? null : (double) bytes / g.requests;
            }
            if (collector != null && window.collectorSpansStored != null
                    && window.collectorSpansStored > 0 && window.collectorCpuMs != null) {
                gatlingCollectorUsPerSpan = window.collectorCpuMs * 1000 / window.collectorSpansStored;
            }
        }
        if (g.reportDir != null) {
            g.reportDir = out.relativize(Path.of(g.reportDir)).toString();
            g.reportIndex = out.relativize(Path.of(g.reportIndex)).toString();
        }
        r.gatling = g;
        if (g.error != null) {
            r.errors.add("gatling: " + g.error);
        }
        say("gatling %-11s %d users %d s: %d requests (%d KO), %.1f req/s, P95 %.0f ms, P99 %.0f ms%s", s.name(),
                g.users, g.seconds, g.requests, g.ko, g.qps, g.p95Ms, g.p99Ms, g.error == null ? "" : " - " + g.error);
        return g.requests;
    }

    private void finalResources(ScenarioResult r, RunningTarget t) {
        for (ManagedProcess p : t.processes()) {
            ProcessResources pr = r.resources.stream().filter(x -> x.pid == p.pid()).findFirst().orElse(null);
            if (pr == null) {
                pr = new ProcessResources();
                pr.service = p.name();
                pr.pid = p.pid();
                r.resources.add(pr);
            }
            Map<String, Long> status = ProcStats.status(p.pid());
            pr.vmHwmKb = status.getOrDefault("VmHWM", 0L);
            pr.vmRssKb = status.getOrDefault("VmRSS", 0L);
            pr.threads = status.getOrDefault("Threads", 0L).intValue();
            pr.cpuMsTotal = ProcStats.cpuMillis(p.pid());
            Map<String, Double> gc = procStats.jstatGc(p.pid());
            pr.gcCountTotal = ProcStats.gcCount(gc);
            pr.gcTimeMsTotal = ProcStats.gcTimeMs(gc);
            if (procStats.forceGc(p.pid())) {
                pr.heapUsedAfterGcKb = ProcStats.heapUsedKb(procStats.jstatGc(p.pid()));
            } else {
                pr.note = "jcmd GC.run failed: no heap-after-GC figure";
            }
            if (gc == null) {
                pr.note = (pr.note == null ? "" : pr.note + "; ") + "jstat failed: no GC figures";
            }
        }
    }

    /**
     * The newest traces of the load must cross the target's services with correct links. When none does, the
     * agents' span drops are read, and a few requests are sent one at a time on the now quiet target: an agent
     * that dropped spans under overload (its queue full, counted) breaks some traces by design, while links
     * broken on a quiet target are a defect. The check passes on the load's traces, or on the quiet requests'
     * when the agents report drops; the text says which.
     */
    private void checkTraceChain(Scenario s, ScenarioResult r, CollectorCheck c, CollectorProcess collector,
                                 RequestSpec load) throws InterruptedException {
        // a peer names its root spans its own way (OpenTelemetry: "GET" without a route): any root
        String rootName = s.isArgus() ? target.tracedRootName() : "";
        try {
            c.traceChain = collector.checkTraceChain(target.tracedServices(), rootName, 200);
            c.traceChainOk = true;
        } catch (java.io.IOException underLoad) {
            Map<String, Long> dropped = collector.droppedSpans(target.serviceNames());
            long drops = dropped.values().stream().mapToLong(Long::longValue).sum();
            String quiet;
            boolean quietOk;
            try {
                for (int i = 0; i < QUIET_TRACE_REQUESTS; i++) {
                    Http.once(load, Duration.ofSeconds(30));
                }
                quiet = awaitQuietTraceChain(collector, rootName);
                quietOk = true;
            } catch (java.io.IOException e) {
                quiet = e.getMessage();
                quietOk = false;
            }
            c.traceChainOk = quietOk && drops > 0;
            c.traceChain = "under load: " + underLoad.getMessage() + "; spans the agents dropped: " + dropped
                    + "; then " + QUIET_TRACE_REQUESTS + " requests one at a time: " + (quietOk ? "" : "FAILED: ")
                    + quiet;
            if (!c.traceChainOk) {
                r.errors.add("trace check: " + c.traceChain);
            }
        }
        say("trace check %-11s %s%s", s.name(), c.traceChainOk ? "" : "FAILED: ", c.traceChain);
    }

    private static final int QUIET_TRACE_REQUESTS = 5;
    /** The agents flush every 100 ms and the collector stores within about 0.5 s; a loaded machine takes longer. */
    private static final Duration QUIET_TRACE_WAIT = Duration.ofSeconds(10);

    /** The quiet requests' traces, checked again every 250 ms until they pass or {@link #QUIET_TRACE_WAIT} is over. */
    private String awaitQuietTraceChain(CollectorProcess collector, String rootName)
            throws java.io.IOException, InterruptedException {
        long deadline = System.nanoTime() + QUIET_TRACE_WAIT.toNanos();
        while (true) {
            try {
                return collector.checkTraceChain(target.tracedServices(), rootName, 50);
            } catch (java.io.IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(250);
            }
        }
    }

    static final int TRACE_LIMIT = 1000;

    /** The collector's CPU per span over the last Gatling run, until the collector check takes it. */
    private Double gatlingCollectorUsPerSpan;

    private void checkCollector(Scenario s, ScenarioResult r, CollectorProcess collector, long sent,
                                LoadSnapshot before, long loadRequests, RequestSpec load) {
        CollectorCheck c = new CollectorCheck();
        c.ingestPort = collector.ingestPort();
        c.httpPort = collector.httpPort();
        c.dataDir = out.relativize(collector.dataDir()).toString();
        c.requestsSent = sent;
        c.gatlingCpuUsPerSpan = gatlingCollectorUsPerSpan;
        gatlingCollectorUsPerSpan = null;
        String root = target.tracedServices().get(0);
        c.query = CollectorProcess.tracesQuery(root, TRACE_LIMIT);
        r.collector = c;
        try {
            // the agents flush every 100 ms and the collector stores asynchronously: wait until the
            // stored-span counter stops moving (3 equal reads a second apart), at most 40 s
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
            double last = -1;
            int stable = 0;
            Map<String, Double> metrics = Map.of();
            while (System.nanoTime() < deadline) {
                metrics = collector.prometheus();
                double stored = metrics.getOrDefault("argus_collector_spans_stored_total", 0.0);
                stable = stored == last ? stable + 1 : 0;
                last = stored;
                if (stable >= (s.samplingRate() > 0 ? 3 : 2)) {
                    break;
                }
                Thread.sleep(1000);
            }
            // the native ingest's frames and the spans the OTLP/HTTP receiver accepted
            c.spansReceived = sum(metrics.get("argus_collector_spans_received_total"),
                    metrics.get("argus_collector_otlp_spans_accepted_total"));
            c.spansStored = metrics.get("argus_collector_spans_stored_total");
            // before the trace queries below, which cost the collector CPU of their own
            collectorCost(s, c, collector, before, loadRequests);
            c.rowsDropped = metrics.get("argus_collector_storage_rows_dropped_total");
            c.framesRejected = metrics.get("argus_collector_frames_rejected_total");
            c.httpMetricsStored = metrics.get("argus_collector_http_metrics_stored_total");
            c.jvmGaugesStored = metrics.get("argus_collector_jvm_gauges_stored_total");
            c.tracesStored = collector.traceCount(root, TRACE_LIMIT);
            c.tracesAtLimit = c.tracesStored >= TRACE_LIMIT;
            List<String> newest = collector.newestTrace(root);
            if (newest != null) {
                c.sampleTraceId = newest.get(0);
                c.sampleTraceSpans = Integer.parseInt(newest.get(1));
                c.sampleTraceServices = new ArrayList<>(newest.subList(2, newest.size()));
            }
            c.services = collector.services();
            c.cpuMsTotal = collector.cpuMillis();
            if (s.samplingRate() > 0 && c.tracesStored == 0) {
                r.errors.add("collector: stored no trace at sampling " + s.samplingRate() + "%");
            }
            if (s.samplingRate() > 0) {
                checkTraceChain(s, r, c, collector, load);
            }
            c.detail = String.format(Locale.ROOT, "%s%d traces of " + root + " (API limit %d) for %d requests; spans received %s, "
                            + "stored %s, dropped %s; frames rejected %s; HTTP metric rows %s, JVM gauge rows %s%s",
                    c.tracesAtLimit ? ">= " : "", c.tracesStored, TRACE_LIMIT, sent,
                    num(c.spansReceived), num(c.spansStored), num(c.rowsDropped), num(c.framesRejected),
                    num(c.httpMetricsStored), num(c.jvmGaugesStored),
                    c.sampleTraceId == null ? "" : "; newest trace " + c.sampleTraceId + ": " + c.sampleTraceSpans
                            + " spans from " + c.sampleTraceServices);
            say("collector %-11s services %s; %s", s.name(), c.services, c.detail);
        } catch (Exception e) {
            c.detail = "query failed: " + firstLine(e);
            r.errors.add("collector: " + c.detail);
            say("collector %-11s query FAILED: %s", s.name(), firstLine(e));
        }
    }

    /** The collector's CPU time and stored spans when the load phase starts. */
    private record LoadSnapshot(double cpuMs, double spansStored) {
        static LoadSnapshot of(CollectorProcess collector) {
            double stored;
            try {
                stored = collector.prometheus().getOrDefault("argus_collector_spans_stored_total", 0.0);
            } catch (Exception e) {
                stored = -1;
            }
            return new LoadSnapshot(collector.cpuMillis(), stored);
        }
    }

    /**
     * The collector's own cost: its CPU time from the start of the load phase until the stored-span counter
     * settled, per span stored and per request sent in that time.
     */
    private void collectorCost(Scenario s, CollectorCheck c, CollectorProcess collector, LoadSnapshot before,
                               long loadRequests) {
        if (c == null || before == null || before.cpuMs() < 0 || before.spansStored() < 0 || c.spansStored == null) {
            return;
        }
        double cpu = collector.cpuMillis();
        if (cpu < 0) {
            return;
        }
        c.cpuMsLoad = cpu - before.cpuMs();
        c.spansStoredLoad = c.spansStored - before.spansStored();
        c.cpuUsPerSpan = c.spansStoredLoad > 0 ? c.cpuMsLoad * 1000 / c.spansStoredLoad : null;
        c.cpuUsPerRequest = loadRequests > 0 ? c.cpuMsLoad * 1000 / loadRequests : null;
        say("collector %-11s CPU over the load phase %.0f ms for %.0f spans stored: %s µs per span, %s µs per request",
                s.name(), c.cpuMsLoad, c.spansStoredLoad, c.cpuUsPerSpan == null ? "-" : String.format(Locale.ROOT, "%.1f",
                        c.cpuUsPerSpan), c.cpuUsPerRequest == null ? "-" : String.format(Locale.ROOT, "%.1f",
                        c.cpuUsPerRequest));
    }

    private static Double sum(Double a, Double b) {
        return a == null ? b : b == null ? a : a + b;
    }

    private static String num(Double v) {
        return v == null ? "?" : String.format(Locale.ROOT, "%.0f", v);
    }

    private static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private final long startNanos = System.nanoTime();

    private void say(String format, Object... args) {
        long s = (System.nanoTime() - startNanos) / 1_000_000_000L;
        log.println(String.format(Locale.ROOT, "[argus-perf %d:%02d] ", s / 60, s % 60)
                + String.format(Locale.ROOT, format, args));
        log.flush();
    }
}
