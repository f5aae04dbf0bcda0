package io.argus.core.instrument;

import io.argus.core.AgentLog;
import io.argus.core.plugin.TypeProbe;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
    /** The probes applied after the gate opened ({@link TypeProbe#afterGate}); cleared when they are. */
    private final List<TypeProbe> afterGate = new ArrayList<TypeProbe>();
    private final ReentryGuard reentry = new ReentryGuard();
    private final ClassLoader agentLoader;
    /** The probes in force: all but the after-gate ones, then every probe once those are applied. */
    private volatile ProbeIndex index;
    /** Shared with the {@link OwnerFieldsTransformer}: each class definition the agent changed, once. */
    private final AtomicLong transformedClasses;
    private final EngineTimings timings = new EngineTimings();
    private final ClassFileTransformer transformer = new PrefilterTransformer();
    /** Made by {@link #prepare}, or on the first class the cache does not have when it was warm. */
    private volatile AdviceWeaver weaver;
    private volatile boolean prepared;
    private boolean weaverFailed;
    private HelperInjector helpers;
    private volatile WovenClassCache cache = WovenClassCache.disabled();
    private volatile Set<String> ownerClasses = Collections.emptySet();
    /** Each probe's place in {@link #probes}: how the class cache names the probes that apply to a class. */
    private final Map<TypeProbe, Integer> probeNumbers = new IdentityHashMap<TypeProbe, Integer>();
    private Instrumentation instrumentation;
    /**
     * The classes woven as they loaded before {@link #retransformLoaded} ran (a class the start gate held
     * loads as the gate opens): that scan finds them loaded and must not weave them twice. Null after it.
     */
    private volatile Set<String> wovenAtLoad = ConcurrentHashMap.newKeySet();
    /** The classes the start gate defined from the class cache before this was ready; null if none could be. */
    private EarlyCacheHits early;

    public InstrumentationEngine(List<TypeProbe> probes, ClassLoader agentLoader, AtomicLong transformedClasses) {
        this.probes = new ArrayList<TypeProbe>(probes);
        this.transformedClasses = transformedClasses;
        this.agentLoader = agentLoader;
        List<TypeProbe> fromStart = new ArrayList<TypeProbe>();
        for (TypeProbe probe : this.probes) {
            probeNumbers.put(probe, probeNumbers.size());
            (probe.isAfterGate() ? afterGate : fromStart).add(probe);
        }
        this.index = new ProbeIndex(fromStart);
    }

    /**
     * Every probe's declaration, in order: what the class cache's entries were woven with. Two starts with
     * the same plugins and settings describe their probes alike.
     */
    public String describeProbes() {
        StringBuilder text = new StringBuilder();
        for (TypeProbe probe : probes) {
            text.append(probe.describe()).append('\n');
        }
        return text.toString();
    }

    /**
     * The class cache the start gate used before this was ready: its helper injector is shared, and the
     * classes it defined are checked by {@link #retransformLoaded}. Set before {@link #prepare}.
     */
    public void useEarlyHits(EarlyCacheHits hits) {
        this.early = hits;
    }

    /**
     * The owner classes (internal names), which the start gate holds for their fields: each one no probe applies
     * to is kept in the class cache as it is, as are the classes a name hint lets in. Set before {@link #prepare}.
     */
    public void useOwnerClasses(Set<String> internalNames) {
        this.ownerClasses = new HashSet<String>(internalNames);
    }

    /** Woven classes kept between runs; set before {@link #prepare}. */
    public void useCache(WovenClassCache cache) {
        this.cache = cache;
    }

    /**
     * Makes the weaver, on the calling thread: false (logged) if it cannot be made, and then no class is
     * instrumented. Then {@link #transformer()} is ready for the classes that load. With a warm class cache
     * the weaver is made only when a class misses it.
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
            helpers = early != null ? early.helpers() : new HelperInjector(agentLoader, inst);
            if (!cache.isWarm()) {
                weaver = new AdviceWeaver(probes, agentLoader, helpers);
            }
        } catch (Throwable t) {
            weaver = null;
            AgentLog.error("instrumentation engine failed to start; no class will be instrumented", t);
            return false;
        }
        prepared = true;
        timings.built(System.nanoTime() - t0, threadCpuNanos() - cpu0);
        return true;
    }

    /** The weaver, made now if {@link #prepare} left it to the first miss; null if it cannot be made. */
    private AdviceWeaver weaver() {
        AdviceWeaver made = weaver;
        if (made != null) {
            return made;
        }
        synchronized (this) {
            if (weaver == null && !weaverFailed) {
                try {
                    weaver = new AdviceWeaver(probes, agentLoader, helpers);
                } catch (Throwable t) {
                    weaverFailed = true;
                    AgentLog.error("instrumentation engine failed to start; no class will be instrumented", t);
                }
            }
            return weaver;
        }
    }

    /**
     * The class as the probes that apply make it: from the class cache when it has these exact bytes, else
     * woven (and kept). Helper classes are defined in the class's loader either way.
     */
    private byte[] weave(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                         byte[] classFile, List<TypeProbe> applicable) throws Exception {
        if (applicable.isEmpty()) {
            if (redefined == null) {
                cache.keepUnchanged(className, classFile); // a name hint let it in, as it lets it in at the gate
            }
            return null;
        }
        WovenClassCache kept = cache;
        String probeKey = probeKey(applicable);
        // a retransformation's class file may be one the JVM rebuilt, its methods in an order of that run's
        byte[] cacheKey = redefined == null ? classFile : RebuiltClassFile.withMethodsSorted(classFile);
        WovenClassCache.Entry entry = kept.find(className, probeKey, cacheKey);
        if (entry != null) {
            helpers.inject(loader, domain, entry.helpers);
            if (AgentLog.isDebug() && entry.output != null) {
                AgentLog.debug("instrumented " + className.replace('/', '.') + " from the class cache");
            }
            return entry.output;
        }
        AdviceWeaver made = weaver();
        if (made == null) {
            return null;
        }
        List<String> defined = new ArrayList<String>(0);
        byte[] woven = made.weave(loader, className, redefined, domain, classFile, applicable, defined);
        if (kept.isEnabled()) {
            try {
                kept.store(className, probeKey, cacheKey, woven, helpers.classFiles(defined));
            } catch (java.io.IOException e) {
                AgentLog.debug("class cache: cannot keep " + className + " (" + e + ")");
            }
        }
        return woven;
    }

    private String probeKey(List<TypeProbe> applicable) {
        StringBuilder key = new StringBuilder();
        for (TypeProbe probe : applicable) {
            key.append(key.length() == 0 ? "" : ",").append(probeNumbers.get(probe));
        }
        return key.toString();
    }

    /**
     * Weaves one class of the agent's own ({@link AdviceWarmUp}), result dropped, so that the first class the
     * application loads finds ByteBuddy's advice machinery loaded. Run on the start-up thread once the
     * transformer is in force: a class the start gate held does not wait for it. Not with a warm class cache:
     * then the application's classes most likely need no weaving at all.
     */
    public void warmUp() {
        AdviceWeaver made = weaver;
        if (made != null && !cache.isWarm()) {
            try {
                made.warmUp(agentLoader);
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
     * thread, which returns when they are done. The {@link TypeProbe#afterGate} probes go in with the same
     * scan of the loaded classes and the same retransformation (one stop of the application's threads),
     * unless a trace put them in already ({@link #applyAfterGateProbes}).
     */
    public synchronized void retransformLoaded() {
        if (!prepared) {
            return;
        }
        long cpu0 = threadCpuNanos();
        ProbeIndex afterGateIndex = takeAfterGateProbes();
        List<Class<?>> loaded = loadedCandidates(instrumentation, index);
        Set<String> woven = wovenAtLoad;
        wovenAtLoad = null;
        int earlyChecked = 0;
        int afterGateClasses = 0;
        for (java.util.Iterator<Class<?>> it = loaded.iterator(); it.hasNext(); ) {
            Class<?> type = it.next();
            String internalName = type.getName().replace('.', '/');
            String key = loadKey(type.getClassLoader(), internalName);
            String earlyProbes = early == null ? null : early.probesDefinedWith(key);
            if (afterGateIndex != null && afterGateIndex.isCandidate(type.getClassLoader(), internalName)
                    && afterGateIndex.matchesLoaded(type)) {
                if (servedEarlyAsNow(type, earlyProbes)) {
                    earlyChecked++;
                    it.remove(); // the class cache put them in before the engine was built
                } else {
                    afterGateClasses++; // its after-gate probes are new, however it was woven before
                }
                continue;
            }
            if (earlyProbes != null) {
                if (!earlyProbes.isEmpty()) {
                    earlyChecked++; // of the classes defined early with advice: the rest are looked for below
                }
                if (servedEarlyAsNow(type, earlyProbes)) {
                    it.remove(); // defined early with the probes that apply: as if woven as it loaded
                } else {
                    AgentLog.debug(type.getName() + " was defined from the class cache with other probes; retransformed");
                }
            } else if (woven.contains(key)) {
                it.remove();
            }
        }
        if (early != null && earlyChecked < early.definedWovenClasses()) {
            loaded.addAll(earlyDefinedWithoutProbes(loaded));
        }
        retransform(instrumentation, loaded);
        timings.startThreadDone(threadCpuNanos() - cpu0);
        if (AgentLog.isDebug()) {
            AgentLog.debug("start-up: " + timings.describe());
            if (afterGateIndex != null) {
                AgentLog.debug("after-gate probes: " + afterGateClasses + " classes retransformed for them with the"
                        + " start-up scan, on " + Thread.currentThread().getName());
            }
        }
    }

    /** Puts the after-gate probes in the index in force: an index of them alone, or null when none are left. */
    private ProbeIndex takeAfterGateProbes() {
        if (afterGate.isEmpty()) {
            return null;
        }
        // their JDK types, loaded now if they are not, are all retransformed alike: the class cache keeps them
        // as a restart looks them up before the engine is built (EarlyCacheHits#retransformAfterGateTypes)
        for (TypeProbe probe : afterGate) {
            if (!probe.isHierarchy()) {
                try {
                    Class.forName(probe.typeName(), false, null);
                } catch (ClassNotFoundException | LinkageError e) {
                    // not in this JDK
                }
            }
        }
        ProbeIndex added = new ProbeIndex(afterGate);
        afterGate.clear();
        index = new ProbeIndex(probes);
        return added;
    }

    /**
     * Puts the {@link TypeProbe#afterGate} probes in force: the index takes them, and the loaded classes
     * they apply to are retransformed on the calling thread (the start-up thread, or the first trace's when it comes
     * first), which returns when they are done. Once only; a no-op before {@link #start} or without such probes.
     */
    public synchronized void applyAfterGateProbes() {
        if (!prepared) {
            return;
        }
        long t0 = System.nanoTime();
        ProbeIndex added = takeAfterGateProbes();
        if (added == null) {
            return;
        }
        List<Class<?>> loaded = loadedCandidates(instrumentation, added);
        for (java.util.Iterator<Class<?>> it = loaded.iterator(); it.hasNext(); ) {
            Class<?> type = it.next();
            String earlyProbes = early == null ? null
                    : early.probesDefinedWith(loadKey(type.getClassLoader(), type.getName().replace('.', '/')));
            if (servedEarlyAsNow(type, earlyProbes)) {
                it.remove(); // the class cache put them in before the engine was built
            }
        }
        retransform(instrumentation, loaded);
        if (AgentLog.isDebug()) {
            AgentLog.debug("after-gate probes: " + loaded.size() + " classes retransformed for them, in "
                    + (System.nanoTime() - t0) / 1_000_000 + " ms on " + Thread.currentThread().getName());
        }
    }

    /** Whether a class the early class cache defined or retransformed ({@code earlyProbes}) has the probes that apply now. */
    private boolean servedEarlyAsNow(Class<?> type, String earlyProbes) {
        return earlyProbes != null && earlyProbes.equals(probeKey(index.probesFor(type)));
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

    /**
     * Classes the start gate defined early from the class cache that no probe in force applies to now
     * (another configuration's entry): retransformed, which takes the advice out.
     */
    private List<Class<?>> earlyDefinedWithoutProbes(List<Class<?>> alreadyListed) {
        List<Class<?>> found = new ArrayList<Class<?>>();
        Set<Class<?>> listed = Collections.newSetFromMap(new IdentityHashMap<Class<?>, Boolean>());
        listed.addAll(alreadyListed);
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            String internalName = type.getName().replace('.', '/');
            ClassLoader loader = type.getClassLoader();
            String earlyProbes = early.probesDefinedWith(loadKey(loader, internalName));
            if (earlyProbes != null && !earlyProbes.isEmpty() && !listed.contains(type)
                    && !(index.isCandidate(loader, internalName) && index.matchesLoaded(type))) {
                AgentLog.debug(type.getName() + " was defined from the class cache with probes that no longer apply; retransformed");
                found.add(type);
            }
        }
        return found;
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

    static String loadKey(ClassLoader loader, String internalName) {
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
            if (!prepared || loader == agentLoader || className == null) {
                return null;
            }
            if (!inForce.isCandidate(loader, className)) {
                if (classBeingRedefined == null && ownerClasses.contains(className) && !reentry.isInside()) {
                    cache.keepUnchanged(className, classfileBuffer); // the gate holds an owner class for its fields
                }
                return null;
            }
            if (reentry.isInside()) {
                return null;
            }
            boolean firstLoad = classBeingRedefined == null;
            reentry.enter();
            long t0 = System.nanoTime();
            try {
                List<TypeProbe> applicable = firstLoad ? inForce.probesFor(loader, className, classfileBuffer)
                        : inForce.probesFor(classBeingRedefined);
                byte[] woven = weave(loader, className, classBeingRedefined, protectionDomain, classfileBuffer,
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
