package io.argus.perf.load.run;

import io.argus.perf.harness.proc.HotSpotCounters;
import io.argus.cluster.process.ManagedProcess;
import io.argus.perf.harness.run.ProbeRequest;
import io.argus.perf.harness.run.StartObserver;
import io.argus.perf.load.model.RunResults.ProcessStartup;
import io.argus.perf.load.target.LaunchPlan;
import io.argus.perf.load.target.ProcessSpec;
import io.argus.perf.load.target.Target;
import io.argus.perf.load.target.TargetEnv;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Starts a target's processes one after the other under a scenario and times each one: from
 * just before the fork to the first successful readiness response (polled every
 * {@value #POLL_MILLIS} ms over a fresh socket, each poll with a sampled {@code traceparent} of its
 * own), plus the value of its 'Started @Nms' line. With a {@link StartObserver}, it goes on probing
 * an instrumented process from that first answer until the collector stored one of the probes'
 * traces (observed) or the observer's bound ran out, before it starts the next process.
 */
public final class Launcher {

    static final int POLL_MILLIS = 5;
    /**
     * How long a readiness poll that was accepted may wait for its answer: a start gate holds the first request until
     * the agent's engine is ready, seconds on a busy machine; giving up on it would lose the first answer.
     */
    static final int POLL_READ_TIMEOUT_MILLIS = 30_000;
    /** How long after ready a process may take to print {@link #ARGUS_LINE}. */
    private static final long ARGUS_LINE_WAIT_MILLIS = 60_000;
    /** [argus] Argus 0.1.0 started in 123 ms: ... */
    static final Pattern ARGUS_LINE = Pattern.compile("\\[argus\\] Argus \\S+ started in (\\d+) ms");
    static final Pattern AGENT_LINE = Pattern.compile(
            "\\[argus\\]|opentelemetry-javaagent - version|Starting Elastic APM|co\\.elastic\\.apm\\.agent");

    private final Path java;
    private final List<String> extraJvmOptions;
    private final List<String> prefix;

    public Launcher(Path java, List<String> extraJvmOptions) {
        this(java, extraJvmOptions, List.of());
    }

    /** @param prefix put before every target command, e.g. {@code taskset -c 0} ({@link Placement#targetPrefix}) */
    public Launcher(Path java, List<String> extraJvmOptions, List<String> prefix) {
        this.java = java;
        this.extraJvmOptions = List.copyOf(extraJvmOptions);
        this.prefix = List.copyOf(prefix);
    }

    /**
     * A target process's command: {@code <prefix> java <its JVM options> <scenario options, if
     * instrumented> <extra options> -cp <class path> <main and arguments>}.
     */
    public List<String> command(ProcessSpec spec, Function<String, List<String>> scenarioOptions) {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(java.toString());
        cmd.addAll(spec.jvmOptions());
        if (spec.instrumented()) {
            cmd.addAll(scenarioOptions.apply(spec.service()));
        }
        cmd.addAll(extraJvmOptions);
        cmd.add("-cp");
        cmd.add(spec.classPath());
        cmd.addAll(spec.mainAndArgs());
        return cmd;
    }

    /**
     * Plans and starts one fresh launch. On any failure every process started so far is stopped
     * and the exception says which process failed, with the end of its output.
     *
     * @param scenarioOptions the scenario's JVM options for a service name
     * @param logDir          where each process's output goes ({@code <tag>-<service>.log})
     * @param load            whether the load phase will measure this launch (see {@link TargetEnv#load})
     * @param observer        probes each instrumented process until observed; null for ready only
     */
    public RunningTarget launch(Target target, Function<String, List<String>> scenarioOptions, Path workDir,
                                Path logDir, String tag, boolean load, StartObserver observer) throws Exception {
        Files.createDirectories(workDir);
        TargetEnv env = new TargetEnv(java, workDir, scenarioOptions, extraJvmOptions, load);
        LaunchPlan plan = target.plan(env);
        RunningTarget running = new RunningTarget(plan);
        try {
            for (ProcessSpec spec : plan.processes()) {
                List<String> cmd = command(spec, scenarioOptions);
                Map<String, Pattern> watched = new LinkedHashMap<>();
                watched.put("started", spec.startedLine());
                watched.put("argus", ARGUS_LINE);
                watched.put("agent", AGENT_LINE);
                Path log = logDir.resolve(tag + "-" + spec.service() + ".log");
                ManagedProcess p = ManagedProcess.start(spec.service(), cmd, workDir.resolve(spec.service()),
                        spec.env(), log, watched);
                running.add(p);
                int[] answeredBefore = new int[1];
                ProbeRequest ready = awaitReady(spec, p, answeredBefore);
                double cpuAtReady = io.argus.perf.harness.proc.ProcStats.cpuMillis(p.pid());
                Long classesAtReady = HotSpotCounters.allLoadedClasses(p.pid());
                ProcessStartup s = new ProcessStartup();
                s.service = spec.service();
                s.instrumented = spec.instrumented();
                s.pid = p.pid();
                s.readyMs = (ready.answeredNanos() - p.spawnNanos()) / 1e6;
                s.cpuMsAtReady = cpuAtReady < 0 ? null : cpuAtReady;
                s.classesAtReady = classesAtReady;
                s.answeredBeforeReady = answeredBefore[0];
                if (observer != null && spec.instrumented()) {
                    observe(observer, spec, p, ready, s);
                } else {
                    s.observation = spec.instrumented() ? "not probed" : "not probed: no agent on this process";
                }
                p.awaitMatch("started", 5000);
                if (runsArgus(cmd)) {
                    // the agent starts on a thread of its own and says so once its engine is in
                    if (p.awaitMatch("argus", ARGUS_LINE_WAIT_MILLIS) != null) {
                        double cpuAtAgentUp = io.argus.perf.harness.proc.ProcStats.cpuMillis(p.pid());
                        s.cpuMsAtAgentUp = cpuAtAgentUp < 0 ? null : cpuAtAgentUp;
                        s.classesAtAgentUp = HotSpotCounters.allLoadedClasses(p.pid());
                    }
                }
                s.startedLogMs = p.matchedNumber("started");
                s.agentLine = p.match("argus") != null ? p.match("argus") : p.match("agent");
                s.agentInitMs = p.matchedNumber("argus");
                s.log = log.toString();
                running.startups().add(s);
            }
            target.afterReady(plan, env);
            return running;
        } catch (Exception | Error e) {
            running.close();
            throw e;
        }
    }

    private static boolean runsArgus(List<String> cmd) {
        for (String arg : cmd) {
            if (arg.startsWith("-javaagent:") && arg.contains("argus-agent.jar")) {
                return true;
            }
        }
        return false;
    }

    /** Fills in when the process was observed, and how many requests it served before. */
    static void observe(StartObserver observer, ProcessSpec spec, ManagedProcess p, ProbeRequest ready,
                        ProcessStartup s) throws InterruptedException {
        StartObserver.Observation o = observer.observe(spec.readiness(), ready, p::isAlive);
        s.probesSent = o.probes().size();
        s.probesUnobserved = o.unobserved();
        if (o.observed() != null) {
            s.observedProbeSentMs = (o.observed().sentNanos() - p.spawnNanos()) / 1e6;
            // never before ready: a probe the start gate held was sent before anything answered
            s.observedMs = Math.max(s.readyMs, s.observedProbeSentMs);
            s.observedTraceId = o.observed().traceId();
            s.observation = "observed";
        } else {
            s.observeGaveUpMs = (o.stoppedNanos() - p.spawnNanos()) / 1e6;
            s.observation = o.note() != null ? "never observed: " + o.note()
                    : String.format(Locale.ROOT, "never observed within %.0f s of its first answer (%d probes)",
                    (o.stoppedNanos() - ready.sentNanos()) / 1e9, o.probes().size());
        }
    }

    /** @param answeredBefore set to the polls answered with another status first (served, so maybe traced) */
    private static ProbeRequest awaitReady(ProcessSpec spec, ManagedProcess p, int[] answeredBefore)
            throws IOException, InterruptedException {
        long deadline = p.spawnNanos() + spec.startupTimeout().toNanos();
        while (true) {
            ProbeRequest probe = ProbeRequest.send(spec.readiness(), 1000, POLL_READ_TIMEOUT_MILLIS);
            int status = probe.status();
            if (spec.readiness().matches(status)) {
                return probe;
            }
            if (probe.answered()) {
                answeredBefore[0]++;
            }
            if (!p.isAlive()) {
                throw new IOException(spec.service() + " exited with code " + p.process().exitValue()
                        + " before it was ready; its last output (" + p.log() + "):" + System.lineSeparator()
                        + p.describeTail(15));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(spec.service() + " was not ready within " + spec.startupTimeout().toSeconds()
                        + " s (" + spec.readiness().describe() + " last answered " + status + "); its last output ("
                        + p.log() + "):" + System.lineSeparator() + p.describeTail(15));
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
