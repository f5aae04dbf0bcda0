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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The instrumentation engine. Its transformer asks the {@link ProbeIndex}, for every class the JVM loads,
 * whether a probe could apply at all, which dismisses almost every class by its name; for the few left it
 * asks which probes apply, and hands only those classes to the {@link AdviceWeaver}. It runs behind the
 * start gate, after the {@link OwnerFieldsTransformer} ({@link AgentTransformer}).
 *
 * <p>{@link #prepare} and {@link #retransformLoaded} run on the agent's start-up thread: classes that
 * loaded before the engine was ready (the JDK's, and in the deferred start-up everything the application
 * loaded meanwhile) are found among the loaded classes and retransformed.
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
    private final ClassFileTransformer transformer = new PrefilterTransformer();
    private volatile AdviceWeaver weaver;
    private Instrumentation instrumentation;
    /**
     * The classes woven as they loaded before {@link #retransformLoaded} ran (a class the start gate held
     * loads as the gate opens): that scan finds them loaded and must not weave them twice. Null after it.
     */
    private volatile Set<String> wovenAtLoad = ConcurrentHashMap.newKeySet();

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
     * Makes the weaver, on the calling thread: false (logged) if it cannot be made, and then no class is
     * instrumented. Then {@link #transformer()} is ready for the classes that load.
     */
    public synchronized boolean prepare(Instrumentation inst) {
        if (probes.isEmpty()) {
            return false;
        }
        instrumentation = inst;
        long t0 = System.nanoTime();
        long cpu0 = threadCpuNanos();
        try {
            ModuleReads.openJdkTargetsToBridge(inst, exactTypeNames(probes));
            weaver = new AdviceWeaver(probes, agentLoader, new HelperInjector(agentLoader, inst));
        } catch (Throwable t) {
            weaver = null;
            AgentLog.error("instrumentation engine failed to start; no class will be instrumented", t);
            return false;
        }
        timings.built(System.nanoTime() - t0, threadCpuNanos() - cpu0);
        return true;
    }

    /**
     * Weaves one class of the agent's own ({@link AdviceWarmUp}), result dropped, so that the first class the
     * application loads finds ByteBuddy's advice machinery loaded. Run on the start-up thread once the
     * transformer is in force: a class the start gate held does not wait for it.
     */
    public void warmUp() {
        AdviceWeaver prepared = weaver;
        if (prepared != null) {
            try {
                prepared.warmUp(agentLoader);
            } catch (Throwable t) {
                AgentLog.warn("the instrumentation engine's warm-up failed", t);
            }
        }
    }

    /** Instruments the classes that load, once {@link #prepare} succeeded; registered through the start gate. */
    public ClassFileTransformer transformer() {
        return transformer;
    }

    /**
     * Retransforms the probed classes that loaded before the transformer was in force, on the calling
     * thread, which returns when they are done.
     */
    public synchronized void retransformLoaded() {
        if (weaver == null) {
            return;
        }
        long cpu0 = threadCpuNanos();
        List<Class<?>> loaded = loadedCandidates(instrumentation, index);
        Set<String> woven = wovenAtLoad;
        wovenAtLoad = null;
        for (java.util.Iterator<Class<?>> it = loaded.iterator(); it.hasNext(); ) {
            Class<?> type = it.next();
            if (woven.contains(loadKey(type.getClassLoader(), type.getName().replace('.', '/')))) {
                it.remove();
            }
        }
        retransform(instrumentation, loaded);
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
            AgentLog.debug("tracing probes: " + loaded.size() + " classes retransformed for the probes that wait for tracing, in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms on " + Thread.currentThread().getName());
        }
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

    private static String loadKey(ClassLoader loader, String internalName) {
        return System.identityHashCode(loader) + "/" + internalName;
    }

    private void retransform(Instrumentation inst, List<Class<?>> candidates) {
        if (candidates.isEmpty()) {
            return;
        }
        try {
            // one redefinition for all of them: each call is a stop of every application thread
            inst.retransformClasses(candidates.toArray(new Class<?>[0]));
            return;
        } catch (Throwable t) {
            // one of them cannot be: each alone, so that the others still are
        }
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
            if (weaver == null || loader == agentLoader || className == null
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
                Set<String> beforeScan = wovenAtLoad;
                if (firstLoad && beforeScan != null) {
                    beforeScan.add(loadKey(loader, className));
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
