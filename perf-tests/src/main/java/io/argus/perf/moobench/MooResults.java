package io.argus.perf.moobench;

import io.argus.perf.harness.stats.Summary;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything a benchmark produces; written as moobench.json and read back by {@code --report-only}. */
public final class MooResults {

    public static final String SCHEMA = "argus-moobench/1";

    public String schema = SCHEMA;
    public String startedAt;
    public String finishedAt;
    public Settings settings = new Settings();
    public Machine machine = new Machine();
    /** The main series: every configuration at {@code settings.depth}. */
    public List<ConfigResult> configs = new ArrayList<>();
    /** The recursion-depth series: one entry per (configuration, depth). */
    public List<ConfigResult> depthSeries = new ArrayList<>();
    public List<String> failures = new ArrayList<>();

    public static final class Settings {
        public boolean quick;
        public int calls;
        public int depth;
        public long methodTimeNs;
        public int runs;
        public int bins;
        public List<String> configs = new ArrayList<>();
        public List<Integer> depths = new ArrayList<>();
        public List<String> depthConfigs = new ArrayList<>();
        public int depthRuns;
        public boolean pinned;
        public int benchCpu = -1;
        public int otherCpu = -1;
        public List<String> jvmOptions = new ArrayList<>();
        public String agentDir;
        public List<String> agentPlugins = new ArrayList<>();
        public String otelAgent;
        public String collector;
        public String tracedMethod;

        public Settings() {
        }
    }

    public static final class Machine {
        public int cores;
        public long memoryMb;
        public String cpuModel;
        public String kernel;
        public String clockSource;
        public String benchJava;
        public String controllerJava;
        public String loadAverageAtStart;
        public String loadAverageAtEnd;

        public Machine() {
        }
    }

    public static final class ConfigResult {
        public String name;
        public String description;
        public int depth;
        public List<String> jvmFlags = new ArrayList<>();
        public List<RunResult> runs = new ArrayList<>();
        /** Traces per second from the measured half's bins of every successful run. */
        public Summary throughput;
        /** Response time of one trace (ns), every measured call of every successful run. */
        public ResponseTimes response;

        public ConfigResult() {
        }
    }

    public static final class ResponseTimes {
        public long calls;
        public double mean;
        /** 95% CI of the mean, from the measured half's bin means. */
        public double ci95;
        /** The mean without the slowest {@link RunAnalysis#TRIM} of the calls. */
        public double trimmedMean;
        public double q1;
        public double median;
        public double q3;
        public double p99;
        public double max;
        /** Calls of 1 ms or more (descheduling, GC pauses). */
        public long over1ms;
        /** Lowest and highest mean over the runs (JVM-to-JVM spread). */
        public double runMeanMin;
        public double runMeanMax;
        public double runMedianMin;
        public double runMedianMax;

        public ResponseTimes() {
        }
    }

    public static final class RunResult {
        public int run;
        /** Position among all the benchmark's JVMs, in start order. */
        public int order;
        public boolean ok;
        public String error;
        public String log;
        public double wallSeconds;
        public long calls;
        public double meanNs;
        public double trimmedMeanNs;
        public double medianNs;
        public double q1Ns;
        public double q3Ns;
        public double p99Ns;
        public double maxNs;
        public long over1ms;
        public double warmupMeanNs;
        public double allocBytesPerTrace = -1;
        public long gcCountSteady = -1;
        public long gcMillisSteady = -1;
        public long gcCountTotal = -1;
        public String pin;
        public String loadBefore;
        public String loadAfter;
        /** The agent's counters after the run (Argus only), and the collector's view (T+I+C+W, T+I+C+W(all)). */
        public Map<String, Long> counters = new LinkedHashMap<>();
        /**
         * Argus: spans the exporter took (written to the collector, or discarded in discard mode) per second of the
         * measured half, and the share of the spans made then that a full queue dropped. Null otherwise.
         */
        public Double spansSentPerSecond;
        public Double dropShare;
        /** Mean response time (ns) of each of {@code settings.bins} consecutive bins of calls. */
        public double[] binMeansNs;
        /** Traces per second of each bin: calls in the bin / the sum of their response times. */
        public double[] binThroughput;

        public RunResult() {
        }
    }

    public ConfigResult config(String name) {
        for (ConfigResult c : configs) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        return null;
    }
}
