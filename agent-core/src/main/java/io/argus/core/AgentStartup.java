package io.argus.core;

import io.argus.bootstrap.handoff.AgentHandoff;
import io.argus.bootstrap.handoff.StartupMode;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.instrument.ClassCacheKeys;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.Executor;

/**
 * The agent's entry point inside the agent's class loader, called with premain's {@link AgentHandoff}.
 * <ul>
 *   <li>{@code parallel} (the default): runs on the start-up thread premain started, at the application's
 *   priority, while the application starts. Premain registered the start gate, which holds any class a probe
 *   applies to until this opens it ({@link AgentRuntime}).</li>
 *   <li>{@code premain}, and a late attach: runs on the calling thread, which returns when every probe is in.</li>
 *   <li>{@code deferred}: first waits, asleep, for a core the application does not need ({@link SpareCpuGate},
 *   at most {@code argus.startup.maxDelay}), then lowers its own priority ({@code argus.startup.niceness})
 *   and starts; what the application loaded meanwhile is retransformed, and what it served is not seen.</li>
 * </ul>
 * Must not reference the bridge: it runs before the bridge exists.
 */
public final class AgentStartup {

    private static final Executor ON_CALLING_THREAD = new Executor() {
        @Override
        public void execute(Runnable command) {
            command.run();
        }
    };

    private AgentStartup() {
    }

    /**
     * Defines the bridge in the boot loader, on the start-up thread while premain still reads the plugins'
     * index (the parallel start-up), so that the class cache can serve the start gate sooner on a restart.
     * A failure is left to {@link #begin}: its own install tries again, and reports (the log level is not
     * known yet here).
     */
    public static void prepare(Instrumentation inst, File bridgeJar) {
        try {
            BridgeInstaller.install(inst, bridgeJar);
        } catch (Throwable t) {
            // begin's install reports it
        }
    }

    public static void begin(AgentHandoff handoff) {
        try {
            AgentConfig config = new AgentConfig(handoff.config());
            AgentSettings.applyLogLevel(config);
            report(handoff);
            if (!config.getBoolean("argus.enabled", true)) {
                AgentLog.info("disabled by configuration");
                handoff.gate().fail();
                return;
            }
            if (AgentLog.isDebug() && handoff.premainNanos() >= 0) {
                AgentLog.debug("start-up: premain took " + handoff.premainNanos() / 1_000_000
                        + " ms on the application's thread");
            }
            if (handoff.mode() == StartupMode.DEFERRED) {
                deferred(handoff, config);
            } else {
                start(handoff, new AgentSettings(config), ON_CALLING_THREAD);
            }
        } catch (Throwable t) {
            handoff.gate().fail();
            AgentLog.error("agent failed to start, the application runs without it", t);
        }
    }

    /** What was wrong with the settings premain read: the config file, the start-up mode. */
    private static void report(AgentHandoff handoff) {
        if (handoff.config().fileProblem() != null) {
            AgentLog.error(handoff.config().fileProblem());
        }
        if (handoff.startup().error != null) {
            AgentLog.error(handoff.startup().error);
        }
        if (handoff.startup().warning != null) {
            AgentLog.warn(handoff.startup().warning);
        }
    }

    private static void deferred(AgentHandoff handoff, AgentConfig config) throws Exception {
        // created before this thread lowers its priority: the exporter keeps the application's
        ThreadLauncher launcher = ThreadLauncher.start();
        try {
            AgentSettings settings = new AgentSettings(config);
            long cpuBeforeWait = AgentLog.isDebug() ? threadCpuMillis() : -1;
            long waited = SpareCpuGate.await(settings.startupMaxDelayMillis);
            if (AgentLog.isDebug()) {
                AgentLog.debug("start-up: waited " + waited + " ms for a spare core; "
                        + Thread.currentThread().getName() + " cpu before it " + cpuBeforeWait + " ms");
            }
            StartThreadNiceness.lowerCurrentThread(settings.startThreadNiceness);
            start(handoff, settings, launcher);
        } finally {
            launcher.close();
        }
    }

    private static void start(AgentHandoff handoff, AgentSettings settings, Executor threadLauncher) throws Exception {
        BridgeInstaller.install(handoff.instrumentation(), handoff.bridgeJar());
        new AgentRuntime(handoff.instrumentation(), handoff.gate(), handoff.mode() == StartupMode.PARALLEL,
                handoff.pluginIndex(), handoff.home(),
                ClassCacheKeys.configuration(handoff.config()))
                .start(settings, handoff.mode(), handoff.startNanos(), threadLauncher);
    }

    static long threadCpuMillis() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() / 1_000_000 : -1;
    }
}
