package io.argus.bootstrap;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;

/**
 * Entry point of {@code -javaagent:argus-agent.jar}. By default it starts the agent's start-up thread
 * and returns: that thread creates the isolated class loader and hands over to the agent core inside
 * it, which puts the bridge into the bootstrap loader and starts the rest. With
 * {@code argus.startup.waitForInstrumentation=true}, and on a late attach, all of it runs here.
 * Whatever goes wrong, the application starts anyway: one line goes to stderr and the agent stays out
 * of the way.
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

    private static synchronized void start(final String args, final Instrumentation inst,
                                           final boolean lateAttach) {
        if (started || !isEnabled()) {
            return;
        }
        started = true;
        final long t0 = System.nanoTime();
        final AgentHome home;
        try {
            home = AgentHome.locate(AgentMain.class);
        } catch (Throwable t) {
            failed(t);
            return;
        }
        if (lateAttach || StartupMode.waitForInstrumentation(home.directory())) {
            begin(inst, args, home, lateAttach, t0, -1);
            return;
        }
        // even the agent's class loader is made off the application's thread: opening the core jar and
        // loading the first classes from it took 10-17 ms of the application's start-up
        final long premainNanos = System.nanoTime() - t0;
        Thread starter = new Thread(new Runnable() {
            @Override
            public void run() {
                begin(inst, args, home, false, t0, premainNanos);
            }
        }, "argus-start");
        starter.setDaemon(true);
        starter.start();
    }

    /**
     * @param premainNanos how long premain took on the application's thread, when this runs on the
     *                     start-up thread; -1 when it runs in premain, which returns once it is done
     */
    private static void begin(Instrumentation inst, String args, AgentHome home, boolean lateAttach, long t0,
                              long premainNanos) {
        try {
            ClassLoader loader = new AgentClassLoader(home.coreClassPath());
            Method begin = Class.forName(CORE_ENTRY, true, loader).getMethod("begin", Instrumentation.class,
                    String.class, File.class, File.class, boolean.class, long.class, long.class);
            begin.invoke(null, inst, args, home.directory(), home.bridgeJar(), lateAttach, t0, premainNanos);
        } catch (Throwable t) {
            failed(t);
        }
    }

    private static void failed(Throwable t) {
        Throwable cause = t instanceof java.lang.reflect.InvocationTargetException ? t.getCause() : t;
        System.err.println("[argus] agent failed to start, the application runs without it: " + cause);
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
