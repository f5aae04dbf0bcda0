package io.argus.perf.load.model;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything one run of the overhead suite measured, written as {@code results.json}. Plain
 * public fields so that Jackson reads and writes it without annotations and so that tests and the
 * report code can build it by hand. Times are in milliseconds unless a field name says otherwise.
 */
public class RunResults {
    public static final String SCHEMA = "argus-perf/1";

    public String schema = SCHEMA;
    public String tool;
    public String startedAt;
    public String finishedAt;
    public double durationSeconds;
    public Settings settings = new Settings();
    public Machine machine = new Machine();
    public List<ScenarioResult> scenarios = new ArrayList<>();
    public List<Comparison> comparisons = new ArrayList<>();
    /** The short MooBench configuration the run ends with (the per-call regression check); null when skipped. */
    public MooBenchCheck moobench;
    public List<String> notes = new ArrayList<>();

    public ScenarioResult scenario(String name) {
        for (ScenarioResult s : scenarios) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    public static class Settings {
        public String target;
        public String endpoint;
        public String mode;
        public List<String> scenarios = new ArrayList<>();
        public int startupRuns;
        public int rounds;
        public int roundSize;
        public int discardRounds;
        public int loadPasses = 1;
        public int gatlingUsers;
        public int gatlingSeconds;
        /** How long a process is probed after its first answer before it counts as never observed, in seconds. */
        public int observeTimeoutSeconds;
        /** The MooBench configuration of the regression section: short or none. */
        public String moobench;
        public String java;
        public String argusHome;
        public String peersDir;
        public String outDir;
        public List<String> extraJvmOptions = new ArrayList<>();
        /** The Argus plugins the jvm-only scenario switched off. */
        public List<String> argusPlugins = new ArrayList<>();
        /** shared (nothing pinned) or separate; for separate, the CPU lists of the targets and of collector + load. */
        public String placement = "shared";
        public String targetCpus;
        public String loadCpus;
        /** One sentence on the placement for the report. */
        public String placementNote;
    }

    public static class Machine {
        public int cores;
        public long memoryMb;
        public String cpuModel;
        public String os;
        public String kernel;
        public String harnessJava;
        public String targetJava;
        public long clockTicksPerSecond;
        public String argusVersion;
        public String gatlingVersion;
        /** /proc/loadavg (1, 5, 15 min) when the run started and when it ended: other work on the machine skews every figure. */
        public String loadAverageStart;
        public String loadAverageEnd;
    }

    public static class ScenarioResult {
        public String name;
        public String description;
        public String agent;
        /** ok, failed (nothing measured) or partial (some phases failed). */
        public String status = "ok";
        public List<String> errors = new ArrayList<>();
        /** Per service: the JVM options this scenario adds (agent flags), exactly as passed. */
        public java.util.Map<String, List<String>> jvmOptions = new java.util.LinkedHashMap<>();
        /**
         * True when its start-up is measured until observed (its agent traces a sampled caller's request and
         * exports it to the run's collector); false for ready only, {@link #readyOnlyReason} saying why.
         */
        public boolean observable;
        public String readyOnlyReason;
        public List<StartupLaunch> startup = new ArrayList<>();
        public ClosedLoop closedLoop;
        public Gatling gatling;
        public List<ProcessResources> resources = new ArrayList<>();
        public CollectorCheck collector;
    }

    public static class StartupLaunch {
        /** 1-based pass number; within a pass every scenario launches once, in order. */
        public int pass;
        /** startup (a start-up-only launch) or load (the launch a load pass measured). */
        public String phase = "startup";
        /** 1-based position of this launch in the whole interleaved sequence. */
        public int sequence;
        public List<ProcessStartup> processes = new ArrayList<>();
        /** Sum over the instrumented processes of spawn-to-first-successful-response. */
        public double totalReadyMs;
        /** Sum over processes of the 'Started @Nms' values, when every process printed one. */
        public Double totalStartedLogMs;
        /**
         * Sum over the instrumented processes of spawn-to-observed; a process never observed counts with the time
         * its probing gave up (a lower bound). Null when the scenario is not observable or was not probed.
         */
        public Double totalObservedMs;
        /** Instrumented processes of this launch that were never observed within the bound. */
        public int neverObserved;
        public String error;
    }

    public static class ProcessStartup {
        public String service;
        /** False for a process the scenario's agent does not go on (Druid's ZooKeeper): left out of the totals. */
        public boolean instrumented = true;
        public long pid;
        /** From process spawn to the first successful HTTP response of the readiness check. */
        public double readyMs;
        /** The value of the 'Started @Nms' log line (ms since JVM start, as the app reports it). */
        public Long startedLogMs;
        /** CPU time (user + system, all threads) the process had used when it became ready: less noisy than wall time on a shared machine. */
        public Double cpuMsAtReady;
        /** Classes the JVM had loaded when the process became ready, CDS-shared ones included (its hsperfdata counters); null where unpublished. */
        public Long classesAtReady;
        /** Argus only: the same two figures once the agent printed its start line (it starts after the application). */
        public Double cpuMsAtAgentUp;
        public Long classesAtAgentUp;
        /** The agent's own start-up line, if it printed one. */
        public String agentLine;
        /** Argus only: 'started in N ms' from the agent's line: from premain until the agent was up. */
        public Long agentInitMs;
        /**
         * From spawn to the sending of the earliest probe, from the first answer on, whose trace the run's collector
         * stored (each probe carries a sampled traceparent of its own), or to {@link #readyMs} when that probe was the
         * first answered one: when the process was observed. Null when it was not probed or never observed.
         */
        public Double observedMs;
        /**
         * When that probe was sent. Before ready when it is the first answered probe: with the start gate, the
         * application's first request waits for the agent's engine, so it was sent before the first answer came.
         */
        public Double observedProbeSentMs;
        /** observed, never observed, or not probed; with the reason for the latter two. */
        public String observation;
        /** Probes sent from the first answer on (the readiness probe that answered first included). */
        public Integer probesSent;
        /** Readiness polls answered with another status before the first success (served, each with a traceparent). */
        public Integer answeredBeforeReady;
        /** Answered probes before the earliest stored one: requests the application served unobserved. */
        public Integer probesUnobserved;
        /** The trace id of the earliest stored probe. */
        public String observedTraceId;
        /** For a process never observed: from spawn until the probing gave up (its observed time is later). */
        public Double observeGaveUpMs;
        public String log;
    }

    public static class ClosedLoop {
        public String request;
        public int roundSize;
        /** The first discardRounds rounds of every load pass are discarded. */
        public int discardRounds;
        /** Fresh launches per scenario, interleaved across scenarios. */
        public int passes = 1;
        public List<Round> rounds = new ArrayList<>();
    }

    public static class Round {
        /** 1-based, within its pass. */
        public int index;
        /** The load pass (fresh launch) this round ran in, 1-based. */
        public int pass = 1;
        public boolean discarded;
        public int requests;
        public int errors;
        public double minMs;
        public double maxMs;
        public double avgMs;
        /** From the Micrometer Timer (publishPercentiles(0.95, 0.99), percentile histogram). */
        public double p95Ms;
        public double p99Ms;
        /** Exact order statistics of this round's raw latencies, for comparison. */
        public double p50ExactMs;
        public double p95ExactMs;
        public double p99ExactMs;
        /** Sum of the latencies (the seed's Total). */
        public double totalMs;
        /** requests / total, as in the seed. */
        public double qps;
        /** Wall-clock time of the round, including the client's own time between requests. */
        public double wallMs;
        /** Every request's latency in microseconds, in order. */
        public int[] latenciesUs;
        /**
         * Per process (service name): CPU time over this round's window, in ms. The windows are contiguous (the
         * figures are read before the first round and after each one), each thread's run time summed from
         * /proc/[pid]/task/[tid]/schedstat (nanoseconds), or from /proc/[pid]/stat (clock ticks) where a thread
         * ended within the window.
         */
        public java.util.Map<String, Double> cpuMs = new java.util.LinkedHashMap<>();
        /** Per process: bytes its threads allocated over the window (ThreadMXBean), where the JVM could be attached. */
        public java.util.Map<String, Long> allocatedBytes = new java.util.LinkedHashMap<>();
        /** The collector's CPU time over the window, in ms, and the spans it stored in it (its own counter). */
        public Double collectorCpuMs;
        public Double collectorSpansStored;
    }

    public static class Gatling {
        public int users;
        public int seconds;
        public String reportDir;
        public String reportIndex;
        /** Where the figures below were read: index.html (the stats table) or console (the summary). */
        public String source;
        public Integer exitCode;
        public String error;
        public long requests;
        public long ok;
        public long ko;
        public double qps;
        public double minMs;
        public double p50Ms;
        public double p75Ms;
        public double p95Ms;
        public double p99Ms;
        public double maxMs;
        public double meanMs;
        public double stdDevMs;
        public double wallSeconds;
    }

    public static class ProcessResources {
        public String service;
        public long pid;
        /** False for a process the agent does not go on (Druid's ZooKeeper). */
        public boolean instrumented = true;
        /** utime+stime spent during the measured (non-discarded) closed-loop rounds (/proc/[pid]/stat). */
        public double cpuMsMeasured;
        public long measuredRequests;
        public double cpuUsPerRequest;
        /** Bytes allocated over the measured rounds, per request (ThreadMXBean); null where not attached. */
        public Double allocBytesPerRequest;
        /** How allocation was read, or why it was not. */
        public String allocSource;
        /** Over the Gatling run: CPU µs (/proc/[pid]/stat) and bytes allocated per Gatling request. */
        public Double gatlingCpuUsPerRequest;
        public Double gatlingAllocBytesPerRequest;
        /** Whole-life CPU time at the end of the load phase. */
        public double cpuMsTotal;
        /** Peak resident set size (VmHWM) at the end of the load phase. */
        public long vmHwmKb;
        public long vmRssKb;
        public int threads;
        public Long gcCountMeasured;
        public Double gcTimeMsMeasured;
        public Long gcCountTotal;
        public Double gcTimeMsTotal;
        /** Heap in use after a full GC forced with jcmd GC.run at the end (the live set). */
        public Long heapUsedAfterGcKb;
        public String note;
    }

    public static class CollectorCheck {
        public int ingestPort;
        public int httpPort;
        public String dataDir;
        public List<String> services = new ArrayList<>();
        /** Traces the collector returned for the front service after the load phase (its API returns at most 1,000). */
        public Long tracesStored;
        /** True when tracesStored hit the API's limit: at least that many. */
        public boolean tracesAtLimit;
        /** argus_collector_spans_received_total / spans_stored_total / storage_rows_dropped_total from GET /metrics. */
        public Double spansReceived;
        public Double spansStored;
        public Double rowsDropped;
        /** Agent frames the collector rejected (argus_collector_frames_rejected_total, all reasons). */
        public Double framesRejected;
        /** HTTP metric rows and JVM gauge rows stored: the metrics side of the export. */
        public Double httpMetricsStored;
        public Double jvmGaugesStored;
        /** The newest trace of front: its id, its span count and the services its spans came from. */
        public String sampleTraceId;
        public Integer sampleTraceSpans;
        public List<String> sampleTraceServices = new ArrayList<>();
        /** Requests sent to the target during the load phase (each one is a trace at sampling 100%). */
        public long requestsSent;
        /**
         * Of those, the start-up probes of the service the traces are counted of: each carries a sampled traceparent,
         * so they are the traces a 0% scenario stores.
         */
        public long probeRequests;
        public String query;
        /** A load request's trace checked for the full service chain (sampling > 0 only). */
        public String traceChain;
        public Boolean traceChainOk;
        public String detail;
        public Double cpuMsTotal;
        /** The collector's CPU time over the load phase (closed loop, Gatling and the flush after them). */
        public Double cpuMsLoad;
        /** argus_collector_spans_stored_total over the same span of time. */
        public Double spansStoredLoad;
        /** cpuMsLoad / spansStoredLoad, in µs: what storing a span costs, on the collector's own CPU. */
        public Double cpuUsPerSpan;
        /** cpuMsLoad / the requests of the load phase, in µs: to set beside the application's CPU per request. */
        public Double cpuUsPerRequest;
        /** Over the Gatling run alone: the collector's CPU per span stored. */
        public Double gatlingCpuUsPerSpan;
    }

    /**
     * The short MooBench run of the regression section: per configuration the mean and median time of a
     * trace, and the portions per instrumented call (I = T+I - T, C = T+I+C - T+I).
     */
    public static class MooBenchCheck {
        /** The argus-moobench arguments used. */
        public List<String> arguments = new ArrayList<>();
        public int depth;
        public long calls;
        public List<MooBenchConfig> configs = new ArrayList<>();
        /** Portion (I, C) to ns per call: mean and median. */
        public java.util.Map<String, Double> perCallMeanNs = new java.util.LinkedHashMap<>();
        public java.util.Map<String, Double> perCallMedianNs = new java.util.LinkedHashMap<>();
        /** Where its own report is, relative to the report folder. */
        public String report;
        public double seconds;
        public String error;
    }

    public static class MooBenchConfig {
        public String name;
        public int runs;
        public Double meanNs;
        public Double ci95Ns;
        public Double medianNs;
    }

    public static class Comparison {
        public String scenario;
        public List<MetricComparison> metrics = new ArrayList<>();

        public MetricComparison metric(String name) {
            for (MetricComparison m : metrics) {
                if (m.metric.equals(name)) {
                    return m;
                }
            }
            return null;
        }
    }

    public static class MetricComparison {
        public String metric;
        public String unit;
        public boolean higherIsBetter;
        public int n;
        public int baselineN;
        public Double median;
        public Double ciLow;
        public Double ciHigh;
        /** The exact coverage of the order-statistic interval (at least 0.95 when n allows it). */
        public Double ciCoverage;
        public Double baselineMedian;
        /** median / baseline median. */
        public Double ratio;
        /** Null where a sample has a single value (no test possible). */
        public Double mannWhitneyU;
        public Double pValue;
        /** exact or normal (normal approximation with tie and continuity correction). */
        public String pMethod;
        /** (mean - baseline mean) / pooled SD; null when undefined (single values, both constant). */
        public Double cohensD;
        /** 0-based indices of this scenario's samples outside Tukey's fences (1.5 IQR). */
        public List<Integer> outliers = new ArrayList<>();
        public List<Integer> baselineOutliers = new ArrayList<>();
        /**
         * What the scenario was compared with: baseline, baseline's startupMs (observed against the baseline's
         * ready time), another scenario (the collector's cost over OTLP against default-100), or none (a value
         * held to a target of its own).
         */
        public String versus;
        /**
         * The ratio scenario / baseline as the Hodges-Lehmann estimate on the log values (the median of all
         * pairwise ratios) with its distribution-free 95% interval (exact from the Mann-Whitney distribution up
         * to 50 values a side); the interval is unbounded (null ends) when the samples are too few.
         */
        public Double ratioEstimate;
        public Double ratioLow;
        public Double ratioHigh;
        /** The same for the difference scenario - baseline, in the metric's unit. */
        public Double differenceEstimate;
        public Double differenceLow;
        public Double differenceHigh;
        /** The actual coverage of the ratio's (or difference's) interval. */
        public Double intervalCoverage;
        /** The anchors target, e.g. "ratio <= 1.10", or null where there is none. */
        public String target;
        /**
         * PASS (the whole interval on the good side of the target), FAIL (wholly on the bad side), INCONCLUSIVE,
         * or n/a without a target.
         */
        public String verdict;
        /** For INCONCLUSIVE: samples per side (launches or rounds, see {@link #samplesUnit}) likely to decide it. */
        public Integer samplesToDecide;
        /** launches or rounds. */
        public String samplesUnit;
    }
}
