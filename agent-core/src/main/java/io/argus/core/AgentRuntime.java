package io.argus.core;

import io.argus.bridge.AdviceErrors;
import io.argus.bridge.client.ClientCalls;
import io.argus.bridge.context.TraceContext;
import io.argus.bridge.db.DatabaseCalls;
import io.argus.bridge.job.JobCalls;
import io.argus.bridge.server.ServerCalls;
import io.argus.core.client.ClientRecorder;
import io.argus.core.db.DatabaseRecorder;
import io.argus.core.db.StatementTracker;
import io.argus.core.job.JobRecorder;
import io.argus.core.plugin.FieldDeclaration;
import io.argus.core.server.RouteNormalizer;
import io.argus.core.server.ServerRecorder;
import io.argus.core.state.FieldRegistry;
import io.argus.core.trace.ContextRecorder;
import io.argus.core.config.AgentSettings;
import io.argus.core.export.Exporter;
import io.argus.core.export.SpanQueue;
import io.argus.core.instrument.InstrumentationEngine;
import io.argus.core.instrument.OwnerFieldsTransformer;
import io.argus.core.state.FieldManifest;
import io.argus.core.metrics.GaugeSource;
import io.argus.core.metrics.CallMetricsTable;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.PluginContext;
import io.argus.core.plugin.Probes;
import io.argus.core.plugin.TypeProbe;
import io.argus.core.trace.Sampler;
import io.argus.core.trace.Tracer;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sets up the agent inside its isolated class loader, on the start-up thread ({@link AgentStartup}):
 * first the owner classes' fields, then (once there is a spare core) recorders into the bridge, the
 * exporter, the plugins and the instrumentation engine.
 */
public final class AgentRuntime {

    private static final long SHUTDOWN_FLUSH_MILLIS = 2000;

    private final Instrumentation inst;
    private final ClassLoader agentLoader = AgentRuntime.class.getClassLoader();
    private final AgentCounters counters = new AgentCounters();
    private final FieldRegistry fields = new FieldRegistry(counters.droppedBindings);
    /** Class definitions the agent changed (fields, advice or both), each once. */
    private final AtomicLong transformedClasses = new AtomicLong();
    private final List<FieldDeclaration> manifestFields;
    private final OwnerFieldsTransformer ownerFields;
    private final boolean realFields;
    /** The JDK's owner classes, which get their fields once the agent has waited for a spare core. */
    private final Map<String, FieldRegistry.OwnerFields> jdkOwners = new HashMap<String, FieldRegistry.OwnerFields>();

    /**
     * Registers the library owner classes' fields, from the plugins' manifests: after the wait for a
     * spare core by default, before it with {@code argus.startup.earlyFields=true}, so that a request class
     * loading meanwhile gets them. The JDK's owners always wait for {@link #start}: their fields serve
     * traced requests only, and injecting them while the application starts (a {@code ForkJoinTask}
     * that its first {@code CompletableFuture} loads) would cost it the reading of JDK class files. The
     * bridge must be defined.
     *
     * @param manifestFields the fields the enabled plugins' manifests declare
     * @param realFields     false with {@code argus.state.ownerFields=false}: no class gets fields, all
     *                       state is in the map
     */
    AgentRuntime(Instrumentation inst, List<FieldDeclaration> manifestFields, boolean realFields) {
        this.inst = inst;
        this.manifestFields = manifestFields;
        this.realFields = realFields;
        TraceContext.installCarrier(fields.declareObjectField(TraceContext.CARRIED_FIELD));
        fields.declare(manifestFields);
        Map<String, FieldRegistry.OwnerFields> libraryOwners = new HashMap<String, FieldRegistry.OwnerFields>();
        if (realFields) {
            for (Map.Entry<String, FieldRegistry.OwnerFields> owner : fields.owners().entrySet()) {
                (FieldDeclaration.isJdkClass(owner.getKey()) ? jdkOwners : libraryOwners)
                        .put(owner.getKey(), owner.getValue());
            }
        }
        ownerFields = OwnerFieldsTransformer.install(inst, agentLoader, libraryOwners, transformedClasses);
    }


    /**
     * @param threadLauncher starts the agent's long-lived threads, at the application's priority
     */
    void start(AgentSettings settings, long startNanos, Executor threadLauncher) {
        ownerFields.add(inst, jdkOwners);
        String version = version();
        SpanQueue queue = new SpanQueue(settings.queueSize, counters, settings.blockWhenFull);
        if (settings.blockWhenFull) {
            AgentLog.warn("argus.exporter.blockWhenFull=true: application threads wait for room in the span queue"
                    + " instead of dropping spans (for benchmarks only)");
        }
        CallMetricsTable serverMetrics = CallMetricsTable.forHttp(settings.maxMetricTargets);
        CallMetricsTable clientMetrics = CallMetricsTable.forHttp(settings.maxMetricTargets);
        CallMetricsTable dbMetrics = new CallMetricsTable(settings.maxMetricTargets);
        CallMetricsTable jobMetrics = new CallMetricsTable(settings.maxMetricTargets);
        Tracer tracer = new Tracer(new Sampler(settings.samplingRate), queue, settings.honorInboundSampling);
        AdviceErrors.install(new AdviceErrorLog(counters));
        ServerCalls.install(new ServerRecorder(tracer, serverMetrics, new RouteNormalizer(settings.normalizeRoutes)));
        ClientCalls.install(new ClientRecorder(tracer, clientMetrics));
        DatabaseCalls.install(new DatabaseRecorder(tracer, dbMetrics, new StatementTracker(counters)));
        TraceContext.install(new ContextRecorder(tracer));
        JobCalls.install(new JobRecorder(tracer, jobMetrics));
        final Exporter exporter = new Exporter(settings, queue, serverMetrics, clientMetrics, dbMetrics, counters,
                version);
        exporter.addCallMetrics(Exporter.JOB_METRICS_KIND, jobMetrics);

        List<String> started = new ArrayList<String>();
        List<TypeProbe> probes = new ArrayList<TypeProbe>();
        List<FieldDeclaration> fieldDeclarations = new ArrayList<FieldDeclaration>();
        loadPlugins(settings, agentLoader, exporter, started, probes, fieldDeclarations);
        declarePluginFields(fieldDeclarations);
        final InstrumentationEngine engine = new InstrumentationEngine(probes, agentLoader, transformedClasses);
        tracer.onFirstTrace(new Runnable() {
            @Override
            public void run() {
                try {
                    engine.applyWhenTracingProbes();
                } catch (Throwable t) {
                    AgentLog.error("the probes that wait for the first trace could not be applied", t);
                }
            }
        });
        exporter.addGaugeSource(new GaugeSource() {
            @Override
            public void sample(GaugeSink sink) {
                sink.gauge("agent.classes.transformed", transformedClasses.get());
            }
        });
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

        engine.start(inst);
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        AgentLog.info("Argus " + version + " started in " + millis + " ms: service=" + settings.serviceName
                + ", collector=" + (settings.exporterMode == AgentSettings.ExporterMode.COLLECTOR
                ? settings.collectorList() : "discard")
                + ", sampling=" + settings.samplingRate + "%, plugins=" + started);
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: " + Thread.currentThread().getName() + " done after " + millis
                    + " ms, its cpu " + AgentStartup.threadCpuMillis() + " ms");
        }
    }

    /**
     * The plugins' own declarations, which their manifests should have listed. One that did not is
     * reported: its owner classes that loaded meanwhile keep that field in the map.
     */
    private void declarePluginFields(List<FieldDeclaration> declared) {
        Set<FieldDeclaration> listed = new HashSet<FieldDeclaration>(manifestFields);
        Set<String> knownOwners = new HashSet<String>(fields.owners().keySet());
        List<FieldDeclaration> unlisted = new ArrayList<FieldDeclaration>();
        for (FieldDeclaration d : declared) {
            if (!listed.contains(d)) {
                unlisted.add(d);
                AgentLog.warn("field " + d.fieldName() + " on " + d.ownerClassName() + " is missing from its plugin's "
                        + FieldManifest.RESOURCE + ": classes that loaded before the plugins keep it in the map");
            }
        }
        fields.declare(unlisted);
        Map<String, FieldRegistry.OwnerFields> newOwners = new HashMap<String, FieldRegistry.OwnerFields>();
        for (FieldDeclaration d : unlisted) {
            if (!knownOwners.contains(d.ownerClassName())) {
                newOwners.put(d.ownerClassName(), fields.owners().get(d.ownerClassName()));
            }
        }
        if (!newOwners.isEmpty() && realFields) {
            ownerFields.add(inst, newOwners);
        }
    }

    private static void loadPlugins(AgentSettings settings, ClassLoader loader, final Exporter exporter,
                                    List<String> started, List<TypeProbe> probes, List<FieldDeclaration> fields) {
        final AgentSettings pluginSettings = settings;
        PluginContext context = new PluginContext() {
            @Override
            public AgentSettings settings() {
                return pluginSettings;
            }

            @Override
            public void addGaugeSource(GaugeSource source) {
                exporter.addGaugeSource(source);
            }
        };
        Iterator<ArgusPlugin> plugins = ServiceLoader.load(ArgusPlugin.class, loader).iterator();
        while (true) {
            ArgusPlugin plugin;
            try {
                if (!plugins.hasNext()) {
                    break;
                }
                plugin = plugins.next();
            } catch (ServiceConfigurationError | LinkageError e) {
                // e.g. a plugin compiled for a newer Java than this JVM's
                AgentLog.error("a plugin could not be loaded and is skipped", e);
                continue;
            }
            String name = plugin.name();
            if (!settings.pluginEnabled(name)) {
                continue;
            }
            try {
                Probes declared = new Probes(name, settings);
                plugin.instrument(declared);
                plugin.start(context);
                probes.addAll(declared.probes());
                fields.addAll(declared.fields());
                started.add(name);
            } catch (Throwable t) {
                AgentLog.error("plugin " + name + " failed to start and is skipped", t);
            }
        }
    }

    static String version() {
        Package p = AgentRuntime.class.getPackage();
        String version = p == null ? null : p.getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
