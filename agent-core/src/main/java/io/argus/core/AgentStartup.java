package io.argus.core;

import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.Executor;

/**
 * The agent's entry point, called by {@code premain} and {@code agentmain} inside the agent's class
 * loader. On a normal start the application's main thread reads the configuration, creates two
 * threads and returns: the rest (the bridge, recorders, exporter, plugins, the instrumentation
 * engine and the retransformation of the classes that loaded meanwhile) runs on {@code argus-start}.
 * That thread lowers its own priority ({@code argus.startup.niceness}), defines the bridge and
 * registers the owner classes' fields (cheap, and needed before the application's first requests),
 * then waits, asleep, for a core the application does not need ({@link SpareCpuGate}, at most
 * {@code argus.startup.maxDelay}): on a small machine the application's own start-up goes first. With {@code argus.startup.waitForInstrumentation=true},
 * and on a late attach, all of it runs on the calling thread, which returns when every probe is in.
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

    public static void begin(final Instrumentation inst, String args, File home, final File bridgeJar,
                             final boolean lateAttach, final long startNanos) {
        final AgentSettings settings = new AgentSettings(AgentConfig.load(home));
        if (!settings.config.getBoolean("argus.enabled", true)) {
            AgentLog.info("disabled by configuration");
            return;
        }
        if (lateAttach || settings.waitForInstrumentation) {
            start(inst, bridgeJar, settings, startNanos, ON_CALLING_THREAD);
            return;
        }
        final ThreadLauncher launcher = ThreadLauncher.start();
        Thread starter = new Thread(new Runnable() {
            @Override
            public void run() {
                StartThreadNiceness.lowerCurrentThread(settings.startThreadNiceness);
                try {
                    AgentRuntime runtime = prepare(inst, bridgeJar, settings);
                    long waited = SpareCpuGate.await(settings.startupMaxDelayMillis);
                    if (AgentLog.isDebug()) {
                        AgentLog.debug("start-up: waited " + waited + " ms for a spare core");
                    }
                    runtime.start(settings, startNanos, launcher);
                } catch (Throwable t) {
                    AgentLog.error("agent failed to start, the application runs without it", t);
                } finally {
                    launcher.close();
                }
            }
        }, "argus-start");
        starter.setDaemon(true);
        starter.start();
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: premain took " + (System.nanoTime() - startNanos) / 1_000_000
                    + " ms on the application's thread, cpu so far " + threadCpuMillis() + " ms");
        }
    }

    private static void start(Instrumentation inst, File bridgeJar, AgentSettings settings, long startNanos,
                              Executor threadLauncher) {
        try {
            prepare(inst, bridgeJar, settings).start(settings, startNanos, threadLauncher);
        } catch (Throwable t) {
            AgentLog.error("agent failed to start, the application runs without it", t);
        }
    }

    /** The bridge, then the owner classes' fields: what must be in place before the agent waits. */
    private static AgentRuntime prepare(Instrumentation inst, File bridgeJar, AgentSettings settings) throws Exception {
        BridgeInstaller.install(inst, bridgeJar);
        return new AgentRuntime(inst, settings);
    }

    static long threadCpuMillis() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() / 1_000_000 : -1;
    }
}
