package io.argus.core.instrument;

import io.argus.core.AgentCounters;
import io.argus.core.AgentLog;
import io.argus.core.plugin.TypeProbe;
import io.argus.core.state.FieldRegistry;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Registers one class file transformer that first asks the {@link ProbeIndex} whether a class
 * could be probed at all, and only then hands it to ByteBuddy.
 *
 * <p>ByteBuddy takes a few hundred milliseconds to set up, so that happens on a background thread
 * while the application starts. A probed class that loads before it is ready is, by default, let
 * through unchanged and retransformed as soon as the engine is ready: the application's start-up
 * never waits for the agent. With {@code argus.startup.waitForInstrumentation=true} such a class
 * waits for the engine instead, so that not even the first requests go unobserved.
 */
public final class InstrumentationEngine {

    private static final long INIT_WAIT_SECONDS = 30;
    private static final int DEFINE_RETRIES = 50;

    private final List<TypeProbe> probes;
    private final Map<String, FieldRegistry.OwnerFields> owners;
    /** Internal names of the owner classes, which get fields as they load. */
    private final Set<String> ownerNames = new HashSet<String>();
    private final LoadPhase phase = new LoadPhase();
    private final ClassLoader agentLoader;
    private final AgentCounters counters;
    private final ProbeIndex index;
    private final boolean waitForEngine;
    /** How much to lower the init thread's priority (a nice increment); 0 keeps it. */
    private final int initNiceness;
    private final AtomicLong transformedClasses = new AtomicLong();
    private final EngineTimings timings = new EngineTimings();
    private final CountDownLatch ready = new CountDownLatch(1);
    /** Names of probed classes that loaded before the engine was ready; guarded by itself. */
    private final Set<String> deferred = new HashSet<String>();
    private volatile ClassFileTransformer byteBuddy;
    private volatile Thread initThread;

    public InstrumentationEngine(List<TypeProbe> probes, Map<String, FieldRegistry.OwnerFields> owners,
                                 ClassLoader agentLoader, AgentCounters counters, boolean waitForEngine,
                                 int initNiceness) {
        this.probes = new ArrayList<TypeProbe>(probes);
        this.owners = owners;
        for (String owner : owners.keySet()) {
            ownerNames.add(owner.replace('.', '/'));
        }
        this.agentLoader = agentLoader;
        this.counters = counters;
        this.index = new ProbeIndex(this.probes);
        this.waitForEngine = waitForEngine;
        this.initNiceness = initNiceness;
    }

    public void install(final Instrumentation inst, final boolean lateAttach) {
        if (probes.isEmpty() && owners.isEmpty()) {
            return;
        }
        ModuleReads.openJdkTargetsToBridge(inst, index.exactNames());
        // the transformer first, then the scan: a class defining in between is seen by one or both
        inst.addTransformer(new PrefilterTransformer(), true);
        final List<Class<?>> loadedEarlier = loadedCandidates(inst);
        initThread = new Thread(new Runnable() {
            @Override
            public void run() {
                // nobody waits for this thread by default: let the application's start-up go first.
                // The application's own threads still transform the classes they load once it is ready.
                if (!waitForEngine && !lateAttach) {
                    InitThreadNiceness.lowerCurrentThread(initNiceness);
                }
                long t0 = System.nanoTime();
                long cpu0 = threadCpuNanos();
                Set<String> loadedMeanwhile;
                try {
                    ClassFileTransformer created = AdviceTransformerFactory.create(probes, owners, agentLoader,
                            new HelperInjector(agentLoader, inst), counters, transformedClasses, phase);
                    synchronized (deferred) {
                        byteBuddy = created;
                        loadedMeanwhile = new HashSet<String>(deferred);
                        deferred.clear();
                    }
                    timings.built(System.nanoTime() - t0, threadCpuNanos() - cpu0);
                    AgentLog.debug("instrumentation engine ready in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                } catch (Throwable t) {
                    AgentLog.error("instrumentation engine failed to start; no class will be instrumented", t);
                    return;
                } finally {
                    ready.countDown();
                }
                retransform(inst, loadedEarlier);
                retransformByName(inst, loadedMeanwhile);
                timings.initThreadDone(threadCpuNanos() - cpu0);
                if (AgentLog.isDebug()) {
                    AgentLog.debug("start-up: " + timings.describe());
                }
            }
        }, "argus-instrumentation-init");
        initThread.setDaemon(true);
        initThread.start();
        if (lateAttach) {
            awaitReady();
        }
    }

    public long transformedClasses() {
        return transformedClasses.get();
    }

    public EngineTimings timings() {
        return timings;
    }

    /** The current thread's CPU time when the log is at debug (the start-up report), else 0. */
    private static long threadCpuNanos() {
        if (!AgentLog.isDebug()) {
            return 0;
        }
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : 0;
    }

    private ClassFileTransformer awaitReady() {
        try {
            if (!ready.await(INIT_WAIT_SECONDS, TimeUnit.SECONDS)) {
                AgentLog.error("instrumentation engine not ready after " + INIT_WAIT_SECONDS + "s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return byteBuddy;
    }

    /** Classes of probed types that were loaded before the transformer was in place. */
    private List<Class<?>> loadedCandidates(Instrumentation inst) {
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

    /**
     * Classes let through while the engine started. A class is defined only after the transformer
     * returns, so one that is not loaded yet is looked for again, briefly.
     */
    private void retransformByName(Instrumentation inst, Set<String> internalNames) {
        int skippedRetransforms = 0;
        Set<String> missing = new HashSet<String>(internalNames);
        for (int attempt = 0; !missing.isEmpty() && attempt < DEFINE_RETRIES; attempt++) {
            if (attempt > 0) {
                sleep(20);
            }
            List<Class<?>> found = new ArrayList<Class<?>>();
            for (Class<?> type : inst.getAllLoadedClasses()) {
                String internal = type.getName().replace('.', '/');
                if (missing.contains(internal) && type.getClassLoader() != agentLoader && inst.isModifiableClass(type)) {
                    found.add(type);
                }
            }
            List<Class<?>> probed = new ArrayList<Class<?>>();
            for (Class<?> type : found) {
                missing.remove(type.getName().replace('.', '/'));
                if (index.matchesLoaded(type)) {
                    probed.add(type);
                }
            }
            skippedRetransforms += found.size() - probed.size();
            retransform(inst, probed);
        }
        if (!internalNames.isEmpty()) {
            AgentLog.debug("of " + internalNames.size() + " classes that loaded while the engine was starting, "
                    + (internalNames.size() - missing.size() - skippedRetransforms) + " retransformed, "
                    + skippedRetransforms + " left alone (no probed super type)");
        }
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

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class PrefilterTransformer implements ClassFileTransformer {
        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                                ProtectionDomain protectionDomain, byte[] classfileBuffer) {
            // the init thread's own class loading is skipped while it builds ByteBuddy, but not the
            // retransformations it runs once the engine is ready
            if (loader == agentLoader || phase.isInside()
                    || !(index.isCandidate(loader, className)
                    || (classBeingRedefined == null && ownerNames.contains(className)))
                    || (byteBuddy == null && Thread.currentThread() == initThread)) {
                return null;
            }
            ClassFileTransformer delegate = byteBuddy;
            if (delegate == null) {
                delegate = notReady(className);
                if (delegate == null) {
                    return null;
                }
            }
            phase.enter(classBeingRedefined == null);
            long t0 = System.nanoTime();
            try {
                return delegate.transform(loader, className, classBeingRedefined, protectionDomain, classfileBuffer);
            } catch (Throwable t) {
                AgentLog.warn("could not instrument " + className + "; it runs unchanged", t);
                return null;
            } finally {
                phase.exit();
                long took = System.nanoTime() - t0;
                timings.transformed(classBeingRedefined == null, took);
                if (AgentLog.isDebug()) {
                    AgentLog.debug("transform of " + className + " took " + took / 1_000_000 + " ms");
                }
            }
        }

        /** Either defers the class (returns null) or waits for the engine. */
        private ClassFileTransformer notReady(String className) {
            if (!waitForEngine) {
                synchronized (deferred) {
                    if (byteBuddy == null) {
                        deferred.add(className);
                        timings.deferred();
                        AgentLog.debug(className + " loaded before the engine was ready; instrumenting it later");
                        return null;
                    }
                }
                return byteBuddy;
            }
            long waitStart = System.nanoTime();
            ClassFileTransformer ready = awaitReady();
            AgentLog.debug(className + " waited " + (System.nanoTime() - waitStart) / 1_000_000
                    + " ms for the instrumentation engine");
            return ready;
        }
    }
}
