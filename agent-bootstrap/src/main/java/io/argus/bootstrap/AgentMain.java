package io.argus.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;

/**
 * Entry point of {@code -javaagent:argus-agent.jar}. Creates the isolated class loader and hands
 * over to the agent core inside it, which puts the bridge into the bootstrap loader and starts the
 * rest, by default on a thread of its own. Whatever goes wrong here, the application starts anyway:
 * one line goes to stderr and the agent stays out of the way.
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
        try {
            AgentHome home = AgentHome.locate(AgentMain.class);
            ClassLoader loader = new AgentClassLoader(home.coreClassPath());
            Method begin = Class.forName(CORE_ENTRY, true, loader).getMethod("begin", Instrumentation.class,
                    String.class, File.class, File.class, boolean.class, long.class);
            begin.invoke(null, inst, args, home.directory(), home.bridgeJar(), lateAttach, t0);
        } catch (Throwable t) {
            Throwable cause = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
            System.err.println("[argus] agent failed to start, the application runs without it: " + cause);
        }
    }

    /** {@code -Dargus.enabled=false} or {@code ARGUS_ENABLED=false} leaves the JVM untouched. */
    static boolean isEnabled() {
        String value = System.getProperty("argus.enabled");
        if (value == null) {
            value = System.getenv("ARGUS_ENABLED");
        }
        return value == null || !value.trim().equalsIgnoreCase("false");
    }
}
