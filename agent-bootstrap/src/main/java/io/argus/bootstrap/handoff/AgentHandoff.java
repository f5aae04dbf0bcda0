package io.argus.bootstrap.handoff;

import java.io.File;
import java.lang.instrument.Instrumentation;

/**
 * What premain hands the agent core, in one typed object: the core's class loader shares this package
 * with premain's, so both see the same classes.
 */
public final class AgentHandoff {

    private final Instrumentation instrumentation;
    private final String agentArgs;
    private final File home;
    private final File bridgeJar;
    private final ConfigSources config;
    private final StartupMode.Decision startup;
    private final boolean lateAttach;
    private final StartGate gate;
    private final PluginIndex pluginIndex;
    private final long startNanos;
    private final long premainNanos;

    public AgentHandoff(Instrumentation instrumentation, String agentArgs, File home, File bridgeJar,
                        ConfigSources config, StartupMode.Decision startup, boolean lateAttach, StartGate gate,
                        PluginIndex pluginIndex, long startNanos, long premainNanos) {
        this.instrumentation = instrumentation;
        this.agentArgs = agentArgs;
        this.home = home;
        this.bridgeJar = bridgeJar;
        this.config = config;
        this.startup = startup;
        this.lateAttach = lateAttach;
        this.gate = gate;
        this.pluginIndex = pluginIndex;
        this.startNanos = startNanos;
        this.premainNanos = premainNanos;
    }

    public Instrumentation instrumentation() {
        return instrumentation;
    }

    /** The text after {@code =} in {@code -javaagent:argus-agent.jar=...}; may be null. */
    public String agentArgs() {
        return agentArgs;
    }

    /** The agent's folder. */
    public File home() {
        return home;
    }

    public File bridgeJar() {
        return bridgeJar;
    }

    public ConfigSources config() {
        return config;
    }

    public StartupMode mode() {
        return startup.mode;
    }

    /** The start-up decision, with what was wrong with its settings, if anything. */
    public StartupMode.Decision startup() {
        return startup;
    }

    public boolean isLateAttach() {
        return lateAttach;
    }

    /** The agent's one transformer; registered by premain in {@link StartupMode#PARALLEL}, else by the core. */
    public StartGate gate() {
        return gate;
    }

    /** The plugins' index as premain read it (the {@code parallel} start-up only); else null. */
    public PluginIndex pluginIndex() {
        return pluginIndex;
    }

    /** When premain began ({@link System#nanoTime}). */
    public long startNanos() {
        return startNanos;
    }

    /** How long premain took on the application's thread; -1 when the whole start-up runs there. */
    public long premainNanos() {
        return premainNanos;
    }
}
