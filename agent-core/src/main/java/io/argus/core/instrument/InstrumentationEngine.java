package io.argus.core.instrument;

import io.argus.core.AgentLog;
import io.argus.core.plugin.TypeProbe;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Registers one class file transformer. For every class the JVM loads it asks the {@link ProbeIndex}
 * whether a probe could apply at all, which dismisses almost every class by its name; for the few
 * left it asks which probes apply, and hands only those classes to the {@link AdviceWeaver}.
 *
 * <p>{@link #start} runs on the agent's start-up thread, after the application has begun: classes
 * that loaded before it are found among the loaded classes and retransformed. Owner classes get their
 * fields from {@link OwnerFieldsTransformer}, registered before this one and earlier at start-up.
 */
public final class InstrumentationEngine {

    private final List<TypeProbe> probes;
    /** The probes applied only once tracing begins ({@link TypeProbe#whenTracing}); cleared when they are. */
    private final List<TypeProbe> whenTracing = new ArrayList<TypeProbe>();
    private final ReentryGuard reentry = new ReentryGuard();
    private final ClassLoader agentLoader;
    /** The probes in force: those applied from the start, then every probe once tracing begins. */
    private volatile ProbeIndex index;
    /** Shared with the {@link OwnerFieldsTransformer}: each class definition the agent changed, once. */
    private final AtomicLong transformedClasses;
    private final EngineTimings timings = new EngineTimings();
    private volatile AdviceWeaver weaver;
    private Instrumentation instrumentation;

    public InstrumentationEngine(List<TypeProbe> probes, ClassLoader agentLoader, AtomicLong transformedClasses) {
        this.probes = new ArrayList<TypeProbe>(probes);
        this.transformedClasses = transformedClasses;
        this.agentLoader = agentLoader;
        List<TypeProbe> fromStart = new ArrayList<TypeProbe>();
        for (TypeProbe probe : this.probes) {
            (probe.isWhenTracing() ? whenTracing : fromStart).add(probe);
        }
        this.index = new ProbeIndex(fromStart);
    }

    /**
     * Makes the weaver, registers the transformer, then retransforms the probed classes that loaded
     * before: all on the calling thread, which returns when they are done.
     */
    public synchronized void start(Instrumentation inst) {
        if (probes.isEmpty()) {
            return;
        }
        instrumentation = inst;
        long t0 = System.nanoTime();
        long cpu0 = threadCpuNanos();
        try {
            ModuleReads.openJdkTargetsToBridge(inst, exactTypeNames(probes));
            weaver = new AdviceWeaver(probes, agentLoader, new HelperInjector(agentLoader, inst));
        } catch (Throwable t) {
            AgentLog.error("instrumentation engine failed to start; no class will be instrumented", t);
            return;
        }
        // the transformer first, then the scan: a class defining in between is seen by one or both
        inst.addTransformer(new PrefilterTransformer(), true);
        timings.built(System.nanoTime() - t0, threadCpuNanos() - cpu0);
        retransform(inst, loadedCandidates(inst, index));
        timings.startThreadDone(threadCpuNanos() - cpu0);
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: " + timings.describe());
        }
    }

    /**
     * Puts the {@link TypeProbe#whenTracing} probes in force: the index takes them, and the loaded classes
     * they apply to are retransformed on the calling thread (the one starting the first trace), which
     * returns when they are done. Once only; a no-op before {@link #start} or without such probes.
     */
    public synchronized void applyWhenTracingProbes() {
        if (whenTracing.isEmpty() || weaver == null) {
            return;
        }
        long t0 = System.nanoTime();
        ProbeIndex added = new ProbeIndex(whenTracing);
        whenTracing.clear();
        index = new ProbeIndex(probes);
        List<Class<?>> loaded = loadedCandidates(instrumentation, added);
        retransform(instrumentation, loaded);
        if (AgentLog.isDebug()) {
            AgentLog.debug("first trace: " + loaded.size() + " classes retransformed for the probes that wait for tracing, in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms on " + Thread.currentThread().getName());
        }
    }

    public EngineTimings timings() {
        return timings;
    }

    private static Set<String> exactTypeNames(List<TypeProbe> probes) {
        Set<String> names = new HashSet<String>();
        for (TypeProbe probe : probes) {
            if (!probe.isHierarchy()) {
                names.add(probe.typeName());
            }
        }
        return names;
    }

    /** The current thread's CPU time when the log is at debug (the start-up report), else 0. */
    static long threadCpuNanos() {
        if (!AgentLog.isDebug()) {
            return 0;
        }
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : 0;
    }

    /** Loaded classes that a probe of {@code index} applies to. */
    private List<Class<?>> loadedCandidates(Instrumentation inst, ProbeIndex index) {
        List<Class<?>> candidates = new ArrayList<Class<?>>();
        if (!inst.isRetransformClassesSupported()) {
            return candidates;
        }
        for (Class<?> type : inst.getAllLoadedClasses()) {
            ClassLoader loader = type.getClassLoader();
            if (loader != agentLoader && index.isCandidate(loader, type.getName().replace('.', '/'))
                    && index.matchesLoaded(type) && inst.isModifiableClass(type)) {
                candidates.add(type);
            }
        }
        return candidates;
    }

    private void retransform(Instrumentation inst, List<Class<?>> candidates) {
        for (Class<?> type : candidates) {
            try {
                inst.retransformClasses(type);
            } catch (Throwable t) {
                AgentLog.warn("could not retransform " + type.getName(), t);
            }
        }
    }

    private final class PrefilterTransformer implements ClassFileTransformer {
        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                                ProtectionDomain protectionDomain, byte[] classfileBuffer) {
            ProbeIndex inForce = index;
            if (loader == agentLoader || className == null
                    || !inForce.isCandidate(loader, className)
                    || reentry.isInside()) {
                return null;
            }
            boolean firstLoad = classBeingRedefined == null;
            reentry.enter();
            long t0 = System.nanoTime();
            try {
                List<TypeProbe> applicable = firstLoad ? inForce.probesFor(loader, className, classfileBuffer)
                        : inForce.probesFor(classBeingRedefined);
                byte[] woven = weaver.weave(loader, className, classBeingRedefined, protectionDomain, classfileBuffer,
                        applicable);
                if (woven != null && !OwnerFieldsTransformer.hasFields(classfileBuffer)) {
                    transformedClasses.incrementAndGet(); // else the owner transformer counted this one
                }
                return woven;
            } catch (Throwable t) {
                AgentLog.warn("could not instrument " + className + "; it runs unchanged", t);
                return null;
            } finally {
                reentry.exit();
                long took = System.nanoTime() - t0;
                timings.transformed(firstLoad, took);
                if (AgentLog.isDebug()) {
                    AgentLog.debug("transform of " + className + " took " + took / 1_000_000 + " ms");
                }
            }
        }
    }
}
