package io.argus.bootstrap;

import io.argus.bootstrap.handoff.AgentHandoff;
import io.argus.bootstrap.handoff.ConfigSources;
import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.bootstrap.handoff.StartGate;
import io.argus.bootstrap.handoff.StartupMode;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;

/**
 * Entry point of {@code -javaagent:argus-agent.jar}. It reads the configuration's sources and decides the
 * start-up mode ({@link StartupMode}). By default ({@code parallel}) it starts the start-up thread
 * ({@link CoreStarter}), which creates the isolated class loader and defines the bridge while this one reads
 * the plugins' index, then registers the start gate, which holds any class a probe applies to until the
 * engine is ready, hands over to that thread and returns. With
 * {@code premain}, and on a late attach, all of it runs here. Whatever goes wrong, the application starts
 * anyway: one line goes to stderr and the agent stays out of the way.
 */
public final class AgentMain {

    private static final String CORE_ENTRY = "io.argus.core.AgentStartup";
    private static volatile boolean started;

    private AgentMain() {
    }

    public static void premain(String args, Instrumentation inst) {
        start(args, inst, false);
    }

    public static void agentmain(String args, Instrumentation inst) {
        start(args, inst, true);
    }

    private static synchronized void start(String args, Instrumentation inst, boolean lateAttach) {
        if (started || !isEnabled()) {
            return;
        }
        started = true;
        long t0 = System.nanoTime();
        final AgentHome home;
        final File bridgeJar;
        final ConfigSources config;
        final StartGate gate;
        PluginIndex pluginIndex = null;
        StartupMode.Decision startup;
        CoreStarter starter = null;
        try {
            home = AgentHome.locate(AgentMain.class);
            bridgeJar = home.bridgeJar();
            config = ConfigSources.load(home.directory());
            startup = lateAttach ? StartupMode.decideLateAttach() : StartupMode.decide(config);
            if (startup.mode == StartupMode.PARALLEL) {
                if (isEnabled(config.raw("argus.enabled"))) {
                    // the core's loader and the bridge are made while this thread reads the index
                    starter = CoreStarter.start(home, inst, bridgeJar);
                }
                ProbeIndexFiles.Result index = ProbeIndexFiles.read(home, config);
                if (index.candidates == null) {
                    // without the index the gate cannot tell which classes to hold: keep the guarantee the slow way
                    startup = StartupMode.fallBackToPremain(startup, index.problem);
                }
                gate = index.candidates == null ? StartGate.notHolding() : StartGate.holding(index.candidates);
                pluginIndex = index.index;
            } else {
                gate = StartGate.notHolding();
            }
        } catch (Throwable t) {
            if (starter != null) {
                starter.cancel();
            }
            failed(t);
            return;
        }
        if (startup.mode != StartupMode.PARALLEL && startup.mode != StartupMode.DEFERRED) {
            if (starter != null) {
                starter.cancel(); // it may be defining the bridge: begin here once it is done
            }
            begin(new AgentHandoff(inst, args, home.directory(), bridgeJar, config, startup,
                    lateAttach, gate, null, t0, -1), home);
            return;
        }
        if (starter == null) {
            starter = CoreStarter.start(home, inst, null);
        }
        gate.startThread(starter.thread());
        if (startup.mode == StartupMode.PARALLEL) {
            inst.addTransformer(gate, true);
        }
        starter.hand(new AgentHandoff(inst, args, home.directory(), bridgeJar, config,
                startup, false, gate, pluginIndex, t0, System.nanoTime() - t0));
    }

    private static void begin(AgentHandoff handoff, AgentHome home) {
        try {
            begin(handoff, coreEntry(home));
        } catch (Throwable t) {
            handoff.gate().fail();
            failed(t);
        }
    }

    static void begin(AgentHandoff handoff, Class<?> coreEntry) throws Exception {
        Method begin = coreEntry.getMethod("begin", AgentHandoff.class);
        begin.invoke(null, handoff);
    }

    /** The core's entry point in a new agent class loader: {@code io.argus.core.AgentStartup}. */
    static Class<?> coreEntry(AgentHome home) throws Exception {
        return Class.forName(CORE_ENTRY, true, new AgentClassLoader(home.coreClassPath()));
    }

    static void failed(Throwable t) {
        Throwable cause = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
        System.err.println("[argus] agent failed to start, the application runs without it: " + cause);
    }

    /** {@code -Dargus.enabled=false} or {@code ARGUS_ENABLED=false} leaves the JVM untouched. */
    static boolean isEnabled() {
        String value = System.getProperty("argus.enabled");
        return isEnabled(value != null ? value : System.getenv("ARGUS_ENABLED"));
    }

    /** Whether a value of {@code argus.enabled} (null when unset) leaves the agent on. */
    private static boolean isEnabled(String value) {
        return value == null || !value.trim().equalsIgnoreCase("false");
    }
}
