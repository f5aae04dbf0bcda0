package io.argus.core;

import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.bootstrap.handoff.StartGate;
import io.argus.bootstrap.handoff.StartupMode;
import io.argus.bridge.AgentStatus;
import io.argus.bridge.context.TraceContext;
import io.argus.core.state.FieldRegistry;
import io.argus.core.config.AgentSettings;
import io.argus.core.export.Exporter;
import io.argus.core.export.SpanQueue;
import io.argus.core.instrument.EarlyCacheHits;
import io.argus.core.instrument.EarlyWarmUp;
import io.argus.core.instrument.ClassCacheKeys;
import io.argus.core.instrument.InstrumentationEngine;
import io.argus.core.instrument.WovenClassCache;
import io.argus.core.instrument.AgentTransformer;
import io.argus.core.instrument.OwnerFieldsTransformer;
import io.argus.core.plugin.GaugeSource;
import io.argus.core.plugin.TypeProbe;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sets up the agent inside its isolated class loader, on the start-up thread ({@link AgentStartup}): the
 * owner classes' fields the plugins' index lists, the recorders into the bridge, the plugins and the
 * instrumentation engine; then it opens the start gate (from then on every class goes through the engine),
 * retransforms the probed classes that loaded before, and starts the exporter. On a restart whose class cache
 * serves every probed class, it observes from the cache first (exporter started) and builds the engine only
 * once it is wanted ({@code argus.startup.engineMaxDelay}). The bridge must be defined.
 */
public final class AgentRuntime {

    private static final long SHUTDOWN_FLUSH_MILLIS = 2000;

    private final Instrumentation inst;
    private final StartGate gate;
    private final boolean gateRegistered;
    /** The plugins' index premain read, naming each plugin's class; null: {@link LoadedPlugins} uses ServiceLoader. */
    private final PluginIndex pluginIndex;
    /** The agent's folder: its {@code lib} names the build that the class cache's entries belong to. */
    private final File home;
    /** The settings that can change the probes ({@link ClassCacheKeys#configuration}): the class cache's early look-up. */
    private final String configurationKey;
    private final ClassLoader agentLoader = AgentRuntime.class.getClassLoader();
    private final AgentCounters counters = new AgentCounters();
    private final FieldRegistry fields = new FieldRegistry(counters.droppedBindings);
    /** Class definitions the agent changed (fields, advice or both), each once. */
    private final AtomicLong transformedClasses = new AtomicLong();

    /**
     * @param gate           the agent's one transformer
     * @param gateRegistered whether premain registered the gate already (it holds the probed classes that
     *                       load before the engine is ready); else this registers it once the engine is
     * @param pluginIndex    the plugins' index as premain read it, or null
     */
    AgentRuntime(Instrumentation inst, StartGate gate, boolean gateRegistered, PluginIndex pluginIndex, File home,
                 String configurationKey) {
        this.inst = inst;
        this.pluginIndex = pluginIndex;
        this.home = home;
        this.configurationKey = configurationKey;
        this.gate = gate;
        this.gateRegistered = gateRegistered;
        TraceContext.installCarrier(fields.declareObjectField(TraceContext.CARRIED_FIELD));
    }

    /**
     * @param threadLauncher starts the agent's long-lived threads, at the application's priority
     */
    void start(AgentSettings settings, StartupMode mode, long startNanos, Executor threadLauncher) {
        try {
            startUp(settings, mode, startNanos, threadLauncher);
        } catch (RuntimeException | Error e) {
            AgentStatus.failed(); // advice of a class defined early waits no longer
            throw e;
        }
    }

    private void startUp(final AgentSettings settings, StartupMode mode, long startNanos, Executor threadLauncher) {
        String version = version();
        // beside the plugins' loading, when the gate may hold a class for the engine (the parallel start-up
        // with some probe enabled); else after the gate opens, and only if there is a probe
        // not when woven classes are kept from an earlier run of this build: they most likely need no weaving
        String build = settings.classCacheDir == null ? null : ClassCacheKeys.build(home);
        boolean cacheWarm = build != null && WovenClassCache.hasEntries(settings.classCacheDir, build);
        boolean warmUpEarly = gate.holdsAny() && !cacheWarm;
        if (warmUpEarly) {
            EarlyWarmUp.start(inst, agentLoader);
        }
        // the index's fields before the plugins': the same slots on every start, and the class cache can serve
        // an owner class with its fields before any plugin is loaded
        if (pluginIndex != null) {
            fields.declare(LoadedPlugins.indexedFields(pluginIndex, settings));
        }
        final OwnerFieldsTransformer ownerFields = OwnerFieldsTransformer.create(inst, agentLoader, owners(settings),
                transformedClasses);
        // a restart: what the class cache holds is defined at once, while the plugins load
        final WovenClassCache earlyView = gateRegistered && gate.holdsAny() && cacheWarm
                ? WovenClassCache.openEarly(settings.classCacheDir, build, configurationKey) : WovenClassCache.disabled();
        EarlyCacheHits early = null;
        if (earlyView.isEnabled()) {
            early = new EarlyCacheHits(earlyView, agentLoader, inst);
            ownerFields.useCache(earlyView);
            early.addFields(ownerFields);
            if (pluginIndex != null) {
                early.serveJdkTypes(inst, LoadedPlugins.indexedJdkTypes(pluginIndex, settings));
            }
            AgentStatus.definesClassesEarly(Thread.currentThread());
            gate.serveEarly(early);
            if (AgentLog.isDebug()) {
                AgentLog.debug("start-up: the class cache serves the gate after " + (System.nanoTime() - startNanos) / 1_000_000
                        + " ms, " + Thread.currentThread().getName() + " cpu " + AgentStartup.threadCpuMillis() + " ms");
            }
        }
        SpanQueue queue = new SpanQueue(settings.queueSize, counters, settings.blockWhenFull);
        if (settings.blockWhenFull) {
            AgentLog.warn("argus.exporter.blockWhenFull=true: application threads wait for room in the span queue"
                    + " instead of dropping spans (for benchmarks only)");
        }
        Tracer tracer = new Tracer(new Sampler(settings.samplingRate), queue, settings.honorInboundSampling);
        Recorders recorders = Recorders.install(settings, tracer, counters);

        // a restart that the class cache serves whole (the JDK's executors included) observes from here on; the
        // engine (the plugins, ByteBuddy) is put off until a core is spare, a class misses the cache, or the deadline
        Exporter exporter = null;
        boolean deferEngine = false;
        if (early != null && settings.engineMaxDelayMillis > 0 && pluginIndex != null) {
            // with the executors' probes from the cache too, nothing needs the engine yet
            deferEngine = early.retransformAfterGateTypes(inst, LoadedPlugins.indexedAfterGateTypes(pluginIndex, settings));
        }
        if (deferEngine) {
            long observingSince = System.currentTimeMillis();
            AgentStatus.observingSince(observingSince);
            exporter = startExporter(settings, mode, version, queue, recorders, observingSince, threadLauncher);
            // the start line now: the agent observes, and the plugins named are those it loads with the engine
            logStarted(settings, mode, version, startNanos, "warm", LoadedPlugins.indexedNames(pluginIndex, settings));
            if (AgentLog.isDebug()) {
                AgentLog.debug("start-up: observing after " + (System.nanoTime() - startNanos) / 1_000_000
                        + " ms, the class cache serving every probed class; the engine waits");
            }
            awaitEngineNeeded(settings.engineMaxDelayMillis);
        }

        LoadedPlugins plugins = LoadedPlugins.load(settings, agentLoader, pluginIndex);
        List<TypeProbe> probes = plugins.probes;
        if (!fields.declare(plugins.fields).isEmpty() && settings.ownerFields) {
            ownerFields.add(inst, fields.owners()); // declared by a plugin, not by the index: from now on
        }
        final InstrumentationEngine engine = new InstrumentationEngine(probes, agentLoader, transformedClasses);
        final WovenClassCache classCache = build == null ? WovenClassCache.disabled()
                : WovenClassCache.open(settings.classCacheDir, build, engine.describeProbes());
        engine.useCache(classCache);
        engine.useOwnerClasses(ownerFields.ownerClasses());
        ownerFields.useCache(classCache);
        engine.useEarlyHits(early);
        engine.prepare(inst);
        // before any trace can start: a trace that starts before this thread applies the after-gate probes
        // (with the scan below, once the gate is open) applies them first on its own thread
        final Runnable applyAfterGate = new Runnable() {
            @Override
            public void run() {
                if (!gate.isOpen()) {
                    return; // the start-up thread applies them when it opens the gate
                }
                try {
                    engine.applyAfterGateProbes();
                } catch (Throwable t) {
                    AgentLog.error("the after-gate probes could not be applied", t);
                }
            }
        };
        tracer.onFirstTrace(applyAfterGate);

        // from here on every class goes through the engine; classes the gate held go on. What is left of the
        // start-up runs beside the application
        gate.open(new AgentTransformer(ownerFields, engine.transformer()));
        if (!gateRegistered) {
            inst.addTransformer(gate, true);
        }
        if (!deferEngine) {
            AgentStatus.observingSince(gate.openedAtMillis());
        }
        if (tracer.hasStartedTracing()) {
            applyAfterGate.run(); // a trace started before the gate opened (an application that calls the bridge)
        }
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: engine ready after " + (System.nanoTime() - startNanos) / 1_000_000 + " ms, "
                    + Thread.currentThread().getName() + " cpu " + AgentStartup.threadCpuMillis() + " ms; "
                    + gate.heldClasses() + " classes waited for it so far, "
                    + earlyView.hits() + " were defined from the class cache before it");
        }
        if (!warmUpEarly) {
            engine.warmUp(); // not with a warm class cache
        }
        ownerFields.warmUp();
        // the after-gate probes too, at every rate, 0% included: else a sampled caller's first request waits for
        // their retransformations on its own thread (12-16 ms on the sample service's first traced request)
        engine.retransformLoaded();
        if (exporter == null) {
            // spans recorded until now wait in the queue
            exporter = startExporter(settings, mode, version, queue, recorders, gate.openedAtMillis(), threadLauncher);
        }
        for (GaugeSource gauge : plugins.gauges) {
            exporter.addGaugeSource(gauge);
        }
        exporter.addGaugeSource(new GaugeSource() {
            @Override
            public void sample(GaugeSink sink) {
                sink.gauge("agent.classes.transformed", transformedClasses.get());
                sink.gauge("agent.classes.fromCache", classCache.hits() + earlyView.hits());
                sink.gauge("agent.classes.fromCacheBeforeReady", earlyView.hits());
            }
        });

        classCache.rememberConfiguration(configurationKey);
        classCache.alsoUsed(earlyView);
        classCache.prune(WovenClassCache.KEEP_FOLDERS, WovenClassCache.MAX_FOLDER_BYTES);
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        if (!deferEngine) {
            logStarted(settings, mode, version, startNanos,
                    !classCache.isEnabled() ? "off" : classCache.isWarm() ? "warm" : "cold", plugins.started);
        }
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: " + Thread.currentThread().getName() + " done after " + millis
                    + " ms, its cpu " + AgentStartup.threadCpuMillis() + " ms; " + gate.heldClasses()
                    + " classes waited for the engine, " + gate.heldNanos() / 1_000_000 + " ms in all");
        }
    }

    /** The start line: from here on the agent observes. */
    private static void logStarted(AgentSettings settings, StartupMode mode, String version, long startNanos,
                                   String classCache, List<String> plugins) {
        AgentLog.info("Argus " + version + " started in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms: service="
                + settings.serviceName + ", collector=" + (settings.exporterMode == AgentSettings.ExporterMode.COLLECTOR
                ? settings.collectorList() : "discard")
                + ", sampling=" + settings.samplingRate + "%, startup=" + mode.settingValue()
                + ", classCache=" + classCache + ", plugins=" + plugins);
    }

    /**
     * Sleeps until the engine is wanted: a core is spare (the application's start-up is over), a class the class
     * cache missed waits at the gate, or {@code maxDelayMillis} passed.
     */
    private void awaitEngineNeeded(long maxDelayMillis) {
        long waited = SpareCpuGate.await(maxDelayMillis, new SpareCpuGate.Pause() {
            @Override
            public boolean pause(long millis) throws InterruptedException {
                return gate.awaitDemand(millis);
            }
        });
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: the engine waited " + waited + " ms"
                    + (gate.isDemanded() ? ", until a class missed the class cache" : ""));
        }
    }

    private Map<String, FieldRegistry.OwnerFields> owners(AgentSettings settings) {
        return settings.ownerFields ? fields.owners() : Collections.<String, FieldRegistry.OwnerFields>emptyMap();
    }

    /** The exporter, started: spans recorded until now wait in the queue. */
    private Exporter startExporter(AgentSettings settings, StartupMode mode, String version, SpanQueue queue,
                                   Recorders recorders, long observingSinceMillis, Executor threadLauncher) {
        final Exporter exporter = new Exporter(settings, queue, recorders.serverMetrics, recorders.clientMetrics,
                recorders.dbMetrics, counters, version);
        exporter.addMessagingMetrics(recorders.producedMetrics, recorders.consumedMetrics);
        exporter.addRpcMetrics(recorders.rpcServerMetrics, recorders.rpcClientMetrics);
        exporter.addCallMetrics(Exporter.JOB_METRICS_KIND, recorders.jobMetrics);
        exporter.startedObserving(mode.settingValue(), observingSinceMillis);
        threadLauncher.execute(new Runnable() {
            @Override
            public void run() {
                exporter.start();
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                exporter.shutdown(SHUTDOWN_FLUSH_MILLIS);
            }
        }, "argus-shutdown"));
        return exporter;
    }

    static String version() {
        Package p = AgentRuntime.class.getPackage();
        String version = p == null ? null : p.getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
