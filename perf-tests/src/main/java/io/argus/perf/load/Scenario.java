package io.argus.perf.load;

import io.argus.perf.floor.TransformerFloorJar;
import io.argus.perf.harness.ArgusHome;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One configuration the targets run under. Each scenario gets fresh JVMs.
 *
 * @param agent          none, argus, opentelemetry, elastic or transformer-floor
 * @param needsCollector whether an Argus collector must be listening (for a peer: it exports to the collector's
 *                       OTLP/HTTP port)
 * @param samplingRate   Argus tracing sampling rate in percent (Argus scenarios only)
 * @param onlyJvmPlugin  Argus with every plugin but jvm switched off
 * @param otlpProtocol   for a peer exporting to the collector: {@code http/protobuf} or {@code grpc}
 * @param startupMode    Argus's {@code argus.startup.mode}, or null for its default (parallel)
 * @param classCache     Argus's {@code argus.startup.classCache}: false weaves afresh at every start, as the
 *                       first start on a new machine or in a fresh container does
 */
public record Scenario(String name, String description, String agent, boolean needsCollector,
                       int samplingRate, boolean onlyJvmPlugin, String otlpProtocol, String startupMode,
                       boolean classCache) {

    public Scenario(String name, String description, String agent, boolean needsCollector, int samplingRate,
                    boolean onlyJvmPlugin, String otlpProtocol, String startupMode) {
        this(name, description, agent, needsCollector, samplingRate, onlyJvmPlugin, otlpProtocol, startupMode, true);
    }

    public static final Scenario BASELINE = new Scenario("baseline", "no agent", "none", false, 0, false, null, null);
    public static final Scenario JVM_ONLY = new Scenario("jvm-only",
            "Argus with only the jvm plugin (every other plugin enabled=false), exporting JVM metrics to a collector",
            "argus", true, 0, true, null, null);
    public static final Scenario DEFAULT_0 = new Scenario("default-0",
            "Argus, all plugins, sampling 0%, exporting metrics to a real collector", "argus", true, 0, false, null, null);
    public static final Scenario DEFAULT_100 = new Scenario("default-100",
            "Argus, all plugins, sampling 100%, exporting every trace and metrics to a real collector",
            "argus", true, 100, false, null, null);
    /** A start without woven classes kept from an earlier one: every start of this scenario is a first start. */
    public static final Scenario DEFAULT_0_COLD = new Scenario("default-0-cold",
            "as default-0, with the class cache off (argus.startup.classCache=false): every start weaves its classes"
                    + " afresh, as the first start on a new machine or in a fresh container does",
            "argus", true, 0, false, null, null, false);
    /** The opt-in start-up that waits for a spare core: ready sooner, early requests unobserved. */
    public static final Scenario DEFAULT_100_DEFERRED = new Scenario("default-100-deferred",
            "as default-100, with the opt-in argus.startup.mode=deferred: the agent waits for a spare core before it"
                    + " builds its engine, so the application answers sooner but is not observed until then",
            "argus", true, 100, false, null, "deferred");
    public static final Scenario OTEL = new Scenario("otel",
            "OpenTelemetry Java agent, default instrumentation (parent-based always-on sampler), exporters off",
            "opentelemetry", false, 100, false, null, null);
    public static final Scenario OTEL_OTLP = new Scenario("otel-otlp",
            "OpenTelemetry Java agent, default instrumentation (parent-based always-on sampler), exporting traces and"
                    + " metrics over OTLP/HTTP protobuf to a real Argus collector (batch delay 1 s, metrics every 10 s,"
                    + " like Argus's defaults)", "opentelemetry", true, 100, false, "http/protobuf", null);
    public static final Scenario OTEL_OTLP_GRPC = new Scenario("otel-otlp-grpc",
            "OpenTelemetry Java agent as in otel-otlp, exporting over OTLP/gRPC to the collector's gRPC receiver",
            "opentelemetry", true, 100, false, "grpc", null);
    public static final Scenario ELASTIC = new Scenario("elastic",
            "Elastic APM Java agent, default instrumentation (transaction_sample_rate 1.0), sending disabled",
            "elastic", false, 100, false, null, null);

    /** What the JVM charges any agent that transforms classes: the floor under every agent's start-up and CPU. */
    public static final Scenario TRANSFORMER_FLOOR = new Scenario("transformer-floor",
            "a Java agent (made by the harness) whose one class-file transformer changes nothing: the JVM hands it"
                    + " every class it loads, as it does for any agent that transforms classes",
            "transformer-floor", false, 0, false, null, null);

    public static final List<Scenario> ALL = List.of(BASELINE, JVM_ONLY, DEFAULT_0, DEFAULT_0_COLD, DEFAULT_100,
            DEFAULT_100_DEFERRED,
            OTEL, OTEL_OTLP, OTEL_OTLP_GRPC, ELASTIC, TRANSFORMER_FLOOR);

    /**
     * What a run without --scenarios runs: all but otel-otlp-grpc, default-0-cold and transformer-floor, which are
     * asked for by name.
     */
    public static final List<Scenario> DEFAULTS = List.of(BASELINE, JVM_ONLY, DEFAULT_0, DEFAULT_100,
            DEFAULT_100_DEFERRED, OTEL, OTEL_OTLP, ELASTIC);

    public static Scenario byName(String name) {
        for (Scenario s : ALL) {
            if (s.name.equals(name)) {
                return s;
            }
        }
        return null;
    }

    public static List<String> names() {
        List<String> names = new ArrayList<>();
        ALL.forEach(s -> names.add(s.name));
        return names;
    }

    public boolean isArgus() {
        return agent.equals("argus");
    }

    public boolean isPeer() {
        return agent.equals("opentelemetry") || agent.equals("elastic");
    }

    public boolean isBaseline() {
        return agent.equals("none");
    }

    /**
     * Whether its start-up can be observed: the agent traces a request that carries a sampled
     * {@code traceparent} and exports it to the run's collector (Argus at any sampling rate honours a
     * sampled caller; so does OpenTelemetry's default parent-based sampler).
     */
    public boolean observable() {
        return isArgus() && !onlyJvmPlugin || agent.equals("opentelemetry") && needsCollector;
    }

    /** Why only the ready time is measured, for a scenario that is not {@link #observable()}; null otherwise. */
    public String readyOnlyReason() {
        if (observable()) {
            return null;
        }
        return switch (agent) {
            case "none" -> "no agent";
            case "argus" -> "only the jvm plugin: no request is traced";
            case "opentelemetry" -> "its exporters are off: no trace reaches a collector";
            case "elastic" -> "sending is off (disable_send): no trace reaches a collector";
            case "transformer-floor" -> "it traces nothing";
            default -> "not a tracing scenario";
        };
    }

    /** The peer jar's file name in the peers folder. */
    public String peerJar() {
        return switch (agent) {
            case "opentelemetry" -> "opentelemetry-javaagent.jar";
            case "elastic" -> "elastic-apm-agent.jar";
            default -> null;
        };
    }

    /**
     * The JVM options this scenario adds to an instrumented process, exactly as passed.
     *
     * @param collectorAddress host:port of the collector's ingest port (Argus scenarios)
     * @param otlpEndpoint     base URL of the collector's OTLP/HTTP or OTLP/gRPC port, as {@link #otlpProtocol}
     * @param plugins          the Argus plugin names (jvm-only switches off all but jvm)
     * @param files            the run's class-cache folder for Argus and the floor agent's jar
     */
    public List<String> jvmOptions(String service, ArgusHome home, Path peersDir, String collectorAddress,
                                   String otlpEndpoint, List<String> plugins, RunFiles files) {
        List<String> o = new ArrayList<>();
        switch (agent) {
            case "argus" -> {
                o.add("-javaagent:" + home.agentJar());
                o.add("-Dargus.service.name=" + service);
                o.add("-Dargus.collector.address=" + collectorAddress);
                o.add("-Dargus.tracing.samplingRate=" + samplingRate);
                if (startupMode != null) {
                    o.add("-Dargus.startup.mode=" + startupMode);
                }
                if (!classCache) {
                    o.add("-Dargus.startup.classCache=false");
                } else if (files.classCacheDir() != null) {
                    o.add("-Dargus.startup.classCacheDir=" + files.classCacheDir());
                }
                if (onlyJvmPlugin) {
                    for (String p : plugins) {
                        if (!p.equals("jvm")) {
                            o.add("-Dargus.plugin." + p + ".enabled=false");
                        }
                    }
                }
            }
            case "opentelemetry" -> {
                o.add("-javaagent:" + peersDir.resolve(peerJar()).toAbsolutePath().normalize());
                o.add("-Dotel.service.name=" + service);
                if (needsCollector) {
                    o.add("-Dotel.exporter.otlp.protocol=" + otlpProtocol);
                    o.add("-Dotel.exporter.otlp.endpoint=" + otlpEndpoint);
                    o.add("-Dotel.traces.exporter=otlp");
                    o.add("-Dotel.metrics.exporter=otlp");
                    // Argus sends a span at most argus.exporter.maxDelay (1 s) after it ends, metrics every 10 s
                    o.add("-Dotel.bsp.schedule.delay=1000");
                    o.add("-Dotel.metric.export.interval=10000");
                } else {
                    o.add("-Dotel.traces.exporter=none");
                    o.add("-Dotel.metrics.exporter=none");
                }
                o.add("-Dotel.logs.exporter=none");
            }
            case "elastic" -> {
                o.add("-javaagent:" + peersDir.resolve(peerJar()).toAbsolutePath().normalize());
                o.add("-Delastic.apm.service_name=" + service);
                o.add("-Delastic.apm.disable_send=true");
                o.add("-Delastic.apm.central_config=false");
                o.add("-Delastic.apm.cloud_provider=NONE");
            }
            case "transformer-floor" -> {
                if (files.transformerFloorAgent() == null) {
                    throw new IllegalStateException("the run made no " + TransformerFloorJar.FILE_NAME);
                }
                o.add("-javaagent:" + files.transformerFloorAgent());
            }
            default -> {
                // baseline: nothing
            }
        }
        return o;
    }
}
