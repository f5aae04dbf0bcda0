package io.argus.core;

import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.FieldDeclaration;
import io.argus.core.state.FieldManifest;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The agent's entry point inside the agent's class loader. On a normal start {@code premain} has only
 * started the start-up thread ({@code argus-start}), which calls this and does everything here: the
 * configuration, the bridge, recorders, exporter, plugins, the instrumentation engine and the
 * retransformation of the classes that loaded meanwhile. It reads the settings (with
 * {@code argus.startup.earlyFields=true}, and where an enabled plugin declares fields on a library class,
 * it also defines the bridge and registers the owner classes' fields, so that classes loading while the
 * application starts get them), then waits,
 * asleep, for a core the application does not need ({@link SpareCpuGate}, at most
 * {@code argus.startup.maxDelay}): on a small machine the application's own start-up goes first. Then
 * it lowers its own priority ({@code argus.startup.niceness}) for the rest: the application may be
 * busy again by then.
 * With {@code argus.startup.waitForInstrumentation=true}, and on a late attach, all of it runs on the
 * calling thread, which returns when every probe is in.
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
     * @param startNanos   when premain began
     * @param premainNanos how long premain took on the application's thread, when this runs on the
     *                     start-up thread premain started; -1 when this runs in premain itself (a late
     *                     attach, or {@code waitForInstrumentation}), which returns once it is done
     */
    public static void begin(Instrumentation inst, String args, File home, File bridgeJar,
                             boolean lateAttach, long startNanos, long premainNanos) {
        AgentConfig config = AgentConfig.load(home);
        AgentSettings.applyLogLevel(config);
        if (!config.getBoolean("argus.enabled", true)) {
            AgentLog.info("disabled by configuration");
            return;
        }
        if (premainNanos < 0) {
            start(inst, home, bridgeJar, new AgentSettings(config), startNanos, ON_CALLING_THREAD);
            return;
        }
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: premain took " + premainNanos / 1_000_000 + " ms on the application's thread");
        }
        // created before this thread lowers its priority: the exporter keeps the application's
        ThreadLauncher launcher = ThreadLauncher.start();
        try {
            // the settings in full (every key checked and reported)
            AgentSettings settings = new AgentSettings(config);
            List<FieldDeclaration> ownerFields = manifestFields(home, settings);
            // only when asked: owner classes get their fields from before the wait; the rest waits
            AgentRuntime runtime = null;
            if (ownerFieldsBeforeWait(settings, ownerFields)) {
                runtime = prepare(inst, bridgeJar, ownerFields, settings.ownerFields);
                AgentLog.debug("start-up: library classes get their fields as they load, from before the wait");
            }
            long cpuBeforeWait = AgentLog.isDebug() ? threadCpuMillis() : -1;
            long waited = SpareCpuGate.await(settings.startupMaxDelayMillis);
            if (AgentLog.isDebug()) {
                AgentLog.debug("start-up: waited " + waited + " ms for a spare core; "
                        + Thread.currentThread().getName() + " cpu before it " + cpuBeforeWait + " ms");
            }
            StartThreadNiceness.lowerCurrentThread(settings.startThreadNiceness);
            if (runtime == null) {
                runtime = prepare(inst, bridgeJar, ownerFields, settings.ownerFields);
            }
            runtime.start(settings, startNanos, launcher);
        } catch (Throwable t) {
            AgentLog.error("agent failed to start, the application runs without it", t);
        } finally {
            launcher.close();
        }
    }

    private static void start(Instrumentation inst, File home, File bridgeJar, AgentSettings settings,
                              long startNanos, Executor threadLauncher) {
        try {
            prepare(inst, bridgeJar, manifestFields(home, settings), settings.ownerFields)
                    .start(settings, startNanos, threadLauncher);
        } catch (Throwable t) {
            AgentLog.error("agent failed to start, the application runs without it", t);
        }
    }

    /**
     * Whether the owner fields' transformer is registered before the wait: only with
     * {@code argus.startup.earlyFields=true}, and only for library owners (the JDK's wait anyway). Off by
     * default: a registered transformer makes the JVM hand it every class that loads (and re-read the
     * shared archive's), which cost the sample service 6-11% of its start-up; classes that load before the
     * agent is up keep their state in the map instead, which untraced requests do not write.
     */
    static boolean ownerFieldsBeforeWait(AgentSettings settings, List<FieldDeclaration> fields) {
        if (!settings.startupEarlyFields || !settings.ownerFields) {
            return false;
        }
        for (FieldDeclaration field : fields) {
            if (!field.ownerIsJdkClass()) {
                return true;
            }
        }
        return false;
    }

    /** The fields the enabled plugins' manifests declare. */
    private static List<FieldDeclaration> manifestFields(File home, final AgentSettings settings) {
        return FieldManifest.read(home, AgentStartup.class.getClassLoader(), new FieldManifest.PluginFilter() {
            @Override
            public boolean enabled(String pluginName) {
                return settings.pluginEnabled(pluginName);
            }
        });
    }

    /** The bridge, then the owner classes' fields. */
    private static AgentRuntime prepare(Instrumentation inst, File bridgeJar, List<FieldDeclaration> ownerFields,
                                        boolean realFields) throws Exception {
        BridgeInstaller.install(inst, bridgeJar);
        return new AgentRuntime(inst, ownerFields, realFields);
    }

    static long threadCpuMillis() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() / 1_000_000 : -1;
    }
}
