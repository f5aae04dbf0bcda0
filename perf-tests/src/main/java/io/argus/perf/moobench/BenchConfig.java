package io.argus.perf.moobench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The configurations, each measured in fresh JVMs. The Argus ones split the overhead as
 * MooBench does (T, I, C, W, and W(all), writing every span); the two OpenTelemetry ones are the peer.
 */
public enum BenchConfig {

    T("T", "no agent: the method's own time"),
    T_I("T+I", "Argus attached, monitoredMethod instrumented, probe deactivated (sampling 0%: the probe runs and gets null)"),
    T_I_C("T+I+C", "Argus, sampling 100%: every call builds an INTERNAL span; the exporter discards them (argus.exporter.mode=discard)"),
    T_I_C_W("T+I+C+W", "Argus, sampling 100%, spans written to a real collector over loopback; a full queue drops spans"),
    T_I_C_W_ALL("T+I+C+W(all)", "as T+I+C+W, but every span is written: with argus.exporter.blockWhenFull=true the"
            + " benchmark thread waits for room in the full queue instead of dropping (as Kieker's blocking writer queue)"),
    OTEL_OFF("otel-off", "OpenTelemetry Java agent, method instrumentation on monitoredMethod, sampler always_off"),
    OTEL_ON("otel-on", "OpenTelemetry Java agent, method instrumentation, default sampler (always on), traces exporter none");

    public static final String SERVICE = "moobench";
    public static final String TRACED_CLASS = MonitoredClass.class.getName();
    public static final String TRACED_METHOD = "monitoredMethod";

    private final String label;
    private final String description;

    BenchConfig(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    public boolean isArgus() {
        return this == T_I || this == T_I_C || this == T_I_C_W || this == T_I_C_W_ALL;
    }

    public boolean isOtel() {
        return this == OTEL_OFF || this == OTEL_ON;
    }

    public boolean needsCollector() {
        return this == T_I_C_W || this == T_I_C_W_ALL;
    }

    /** The label as a file-name part: T+I+C+W(all) -> TICWall. */
    public String fileName() {
        return label.replaceAll("[^A-Za-z0-9-]", "");
    }

    public static BenchConfig parse(String label) {
        for (BenchConfig c : values()) {
            if (c.label.equalsIgnoreCase(label.trim())) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown configuration '" + label + "': expected one of "
                + String.join(", ", labels()));
    }

    public static List<String> labels() {
        List<String> out = new ArrayList<>();
        for (BenchConfig c : values()) {
            out.add(c.label);
        }
        return out;
    }

    /**
     * The agent flags of this configuration.
     *
     * @param agentDir         an Argus agent folder whose plugins/ holds the method plugin
     * @param otelAgent        the OpenTelemetry Java agent jar
     * @param collectorAddress host:port of the collector's ingest (T+I+C+W and T+I+C+W(all) only)
     */
    public List<String> agentFlags(Path agentDir, Path otelAgent, String collectorAddress) {
        List<String> flags = new ArrayList<>();
        switch (this) {
            case T:
                break;
            case T_I:
            case T_I_C:
            case T_I_C_W:
            case T_I_C_W_ALL:
                flags.add("-javaagent:" + agentDir.resolve("argus-agent.jar"));
                flags.add("-Dargus.service.name=" + SERVICE);
                flags.add("-Dargus.trace.methods=" + TRACED_CLASS + "#" + TRACED_METHOD);
                flags.add("-Dargus.tracing.samplingRate=" + (this == T_I ? "0" : "100"));
                // MonitoredClass loads at once: it must not run uninstrumented while ByteBuddy starts
                flags.add("-Dargus.startup.mode=premain");
                if (needsCollector()) {
                    flags.add("-Dargus.collector.address=" + collectorAddress);
                    if (this == T_I_C_W_ALL) {
                        flags.add("-Dargus.exporter.blockWhenFull=true");
                    }
                } else {
                    flags.add("-Dargus.exporter.mode=discard");
                }
                break;
            case OTEL_OFF:
            case OTEL_ON:
                flags.add("-javaagent:" + otelAgent);
                flags.add("-Dotel.service.name=" + SERVICE);
                flags.add("-Dotel.instrumentation.methods.include=" + TRACED_CLASS + "[" + TRACED_METHOD + "]");
                if (this == OTEL_OFF) {
                    flags.add("-Dotel.traces.sampler=always_off");
                }
                flags.add("-Dotel.traces.exporter=none");
                flags.add("-Dotel.metrics.exporter=none");
                flags.add("-Dotel.logs.exporter=none");
                break;
            default:
                throw new AssertionError(this);
        }
        return flags;
    }
}
