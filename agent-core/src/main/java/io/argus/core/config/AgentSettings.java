package io.argus.core.config;

import java.io.File;
import io.argus.core.AgentLog;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Every agent setting, read and checked once at start-up. See docs/configuration.md. */
public final class AgentSettings {

    public static final String DEFAULT_COLLECTOR = "127.0.0.1:9898";

    public enum ExporterMode { COLLECTOR, DISCARD }

    public final AgentConfig config;
    public final String serviceName;
    public final String instance;
    public final String host;
    /** The collectors to send to, in the order they are tried; never empty. */
    public final List<CollectorAddress> collectorAddresses;
    /** The first of {@link #collectorAddresses}. */
    public final String collectorHost;
    public final int collectorPort;
    public final String token;
    public final CollectorTlsSettings collectorTls;
    public final double samplingRate;
    public final long metricsIntervalMillis;
    public final int maxMetricTargets;
    public final int queueSize;
    public final int batchSize;
    /** Longest a span waits in the queue for its batch to fill before the exporter sends what it has. */
    public final long maxDelayMillis;
    public final int maxPendingBytes;
    /** Bound of the span frames kept until the collector acknowledges them (resent after a failover). */
    public final int maxUnackedBytes;
    public final long maxBackoffMillis;
    public final ExporterMode exporterMode;
    /** Benchmarks only: an application thread waits for room in the span queue instead of dropping its span. */
    public final boolean blockWhenFull;
    /** Deferred start-up: nice increment for the agent's start-up thread on Linux; 0 leaves its priority alone. */
    public final int startThreadNiceness;
    /** Deferred start-up: how long the agent's start-up waits for a spare CPU core; 0 starts at once. */
    public final long startupMaxDelayMillis;
    /**
     * On a restart the class cache serves whole: how long the engine (the plugins and ByteBuddy) may be put off
     * while the application starts; 0 builds it at once.
     */
    public final long engineMaxDelayMillis;
    /** Whether owner classes get real fields at all; false keeps every plugin's state in the agent's map. */
    public final boolean ownerFields;
    public final boolean honorInboundSampling;
    /** Where woven classes are kept between runs ({@code argus.startup.classCache}); null: not kept. */
    public final File classCacheDir;
    public final boolean normalizeRoutes;

    public AgentSettings(AgentConfig config) {
        this.config = config;
        AgentLog.setLevel(logLevel(config));
        this.serviceName = config.getString("argus.service.name", defaultServiceName());
        this.host = hostName();
        this.instance = config.getString("argus.service.instance", serviceName + "@" + host + ":" + pid());
        this.collectorAddresses = collectorAddresses(config);
        this.collectorHost = collectorAddresses.get(0).host;
        this.collectorPort = collectorAddresses.get(0).port;
        this.token = config.getString("argus.collector.token", "");
        this.collectorTls = CollectorTlsSettings.read(config);
        this.samplingRate = config.getDouble("argus.tracing.samplingRate", 0, 0, 100);
        this.metricsIntervalMillis = config.getDurationMillis("argus.metrics.interval", 10_000, 100, 3_600_000);
        this.maxMetricTargets = config.getInt("argus.metrics.maxTargets", 1000, 1, 1_000_000);
        this.queueSize = config.getInt("argus.exporter.queueSize", 8192, 16, 1 << 22);
        this.batchSize = config.getInt("argus.exporter.batchSize", 512, 1, 10_000);
        this.maxDelayMillis = maxDelayMillis(config);
        this.maxPendingBytes = config.getInt("argus.exporter.maxPendingBytes", 4 << 20, 64 << 10, 1 << 30);
        this.maxUnackedBytes = config.getInt("argus.exporter.maxUnackedBytes", 8 << 20, 64 << 10, 1 << 30);
        this.maxBackoffMillis = config.getDurationMillis("argus.exporter.maxBackoff", 30_000, 100, 3_600_000);
        this.exporterMode = exporterMode(config);
        this.blockWhenFull = config.getBoolean("argus.exporter.blockWhenFull", false);
        this.startThreadNiceness = config.getInt("argus.startup.niceness", 10, 0, 19);
        this.startupMaxDelayMillis = config.getDurationMillis("argus.startup.maxDelay", 10_000, 0, 600_000);
        this.engineMaxDelayMillis = config.getDurationMillis("argus.startup.engineMaxDelay", 10_000, 0, 600_000);
        this.ownerFields = config.getBoolean("argus.state.ownerFields", true);
        this.honorInboundSampling = config.getBoolean("argus.tracing.honorInboundSampling", true);
        this.normalizeRoutes = config.getBoolean("argus.http.normalizeRoutes", true);
        this.classCacheDir = config.getBoolean("argus.startup.classCache", true)
                ? new File(config.getString("argus.startup.classCacheDir", defaultClassCacheDir())) : null;
    }

    /** The user's own folder in the temporary directory, so two users of a machine share nothing. */
    static String defaultClassCacheDir() {
        return new File(System.getProperty("java.io.tmpdir"), "argus-classes-" + System.getProperty("user.name")).getPath();
    }

    public boolean pluginEnabled(String pluginName) {
        return config.getBoolean("argus.plugin." + pluginName + ".enabled", true);
    }

    /**
     * {@code argus.exporter.maxDelay}; the deprecated {@code argus.exporter.flushInterval} (the idle sleep of the
     * exporter before batching) still sets it when {@code maxDelay} is not given.
     */
    private static long maxDelayMillis(AgentConfig config) {
        String legacy = "argus.exporter.flushInterval";
        if (config.raw(legacy) == null) {
            return config.getDurationMillis("argus.exporter.maxDelay", 1000, 1, 60_000);
        }
        if (config.raw("argus.exporter.maxDelay") != null) {
            AgentLog.warn(legacy + " is deprecated and ignored: argus.exporter.maxDelay is set");
            return config.getDurationMillis("argus.exporter.maxDelay", 1000, 1, 60_000);
        }
        AgentLog.warn(legacy + " is deprecated: use argus.exporter.maxDelay (the longest a span waits for its"
                + " batch to fill); its value is taken as argus.exporter.maxDelay");
        return config.getDurationMillis(legacy, 1000, 1, 60_000);
    }

    private static ExporterMode exporterMode(AgentConfig config) {
        String value = config.getString("argus.exporter.mode", "collector");
        try {
            return ExporterMode.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            AgentLog.error("invalid value '" + value + "' for argus.exporter.mode: expected collector or discard;"
                    + " using the default collector");
            return ExporterMode.COLLECTOR;
        }
    }

    /** Sets the agent log's level from {@code argus.log.level}, before the settings are read in full. */
    public static void applyLogLevel(AgentConfig config) {
        AgentLog.setLevel(logLevel(config));
    }

    private static AgentLog.Level logLevel(AgentConfig config) {
        String value = config.getString("argus.log.level", "info");
        try {
            return AgentLog.Level.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            AgentLog.error("invalid value '" + value + "' for argus.log.level: expected debug, info, warn, error"
                    + " or off; using the default info");
            return AgentLog.Level.INFO;
        }
    }

    /**
     * {@code argus.collector.address}: {@code host:port}, or several separated by commas. A malformed entry is
     * reported and skipped; with none left, the default is used.
     */
    private static List<CollectorAddress> collectorAddresses(AgentConfig config) {
        String key = "argus.collector.address";
        String value = config.getString(key, DEFAULT_COLLECTOR);
        String[] entries = value.split(",", -1);
        List<CollectorAddress> addresses = new ArrayList<CollectorAddress>(entries.length);
        for (String entry : entries) {
            CollectorAddress address = CollectorAddress.parse(entry);
            if (address != null) {
                addresses.add(address);
            } else if (entries.length > 1) {
                AgentLog.error("invalid entry '" + entry.trim() + "' in " + key + ": expected host:port with a port"
                        + " from 1 to 65535; skipping it");
            }
        }
        if (addresses.isEmpty()) {
            AgentLog.error("invalid value '" + value + "' for " + key + ": expected host:port"
                    + (entries.length > 1 ? " or a comma-separated list of them" : "")
                    + "; using the default " + DEFAULT_COLLECTOR);
            addresses.add(CollectorAddress.parse(DEFAULT_COLLECTOR));
        }
        return Collections.unmodifiableList(addresses);
    }

    /** {@link #collectorAddresses} as configured: {@code host1:port1,host2:port2}. */
    public String collectorList() {
        StringBuilder list = new StringBuilder();
        for (CollectorAddress address : collectorAddresses) {
            list.append(list.length() == 0 ? "" : ",").append(address);
        }
        return list.toString();
    }

    /** The main class's simple name, or the jar's name without {@code .jar}. */
    static String defaultServiceName() {
        String command = System.getProperty("sun.java.command", "");
        String first = command.trim().split("\\s+")[0];
        if (first.isEmpty()) {
            return "unknown-service";
        }
        if (first.endsWith(".jar")) {
            String name = first.substring(Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\')) + 1);
            return name.substring(0, name.length() - 4);
        }
        return first.substring(first.lastIndexOf('.') + 1);
    }

    /** From the environment: a DNS look-up here could stall the application's start. */
    static String hostName() {
        String name = System.getenv("HOSTNAME");
        if (name == null || name.isEmpty()) {
            name = System.getenv("COMPUTERNAME");
        }
        return name == null || name.isEmpty() ? "localhost" : name;
    }

    /**
     * On Linux from {@code /proc/self}, which loads nothing; else {@code ProcessHandle} on Java 9+ (whose
     * first use starts a process reaper pool) and the runtime MXBean on Java 8.
     */
    public static long pid() {
        try {
            java.nio.file.Path self = java.nio.file.Paths.get("/proc/self");
            if (java.nio.file.Files.isSymbolicLink(self)) {
                return Long.parseLong(java.nio.file.Files.readSymbolicLink(self).getFileName().toString());
            }
        } catch (Exception noProc) {
            // below
        }
        try {
            Class<?> handle = Class.forName("java.lang.ProcessHandle");
            Object current = handle.getMethod("current").invoke(null);
            return (Long) handle.getMethod("pid").invoke(current);
        } catch (Exception notJava9) {
            String name = ManagementFactory.getRuntimeMXBean().getName();
            int at = name.indexOf('@');
            try {
                return Long.parseLong(at > 0 ? name.substring(0, at) : name);
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }
}
