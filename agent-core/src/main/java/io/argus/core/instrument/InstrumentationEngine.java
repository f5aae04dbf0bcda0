package io.argus.core.instrument;

import io.argus.core.AgentCounters;
import io.argus.core.AgentLog;
import io.argus.core.plugin.TypeProbe;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Registers one class file transformer that first asks the {@link ProbeIndex} whether a class
 * could be probed at all, and only then hands it to ByteBuddy. ByteBuddy itself is set up on a
 * background thread while the application starts; the first class that needs it waits for it.
 */
public final class InstrumentationEngine {

    private static final long INIT_WAIT_SECONDS = 30;

    private final List<TypeProbe> probes;
    private final ClassLoader agentLoader;
    private final AgentCounters counters;
    private final ProbeIndex index;
    private final AtomicLong transformedClasses = new AtomicLong();
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile ClassFileTransformer byteBuddy;
    private volatile Thread initThread;

    public InstrumentationEngine(List<TypeProbe> probes, ClassLoader agentLoader, AgentCounters counters) {
        this.probes = new ArrayList<TypeProbe>(probes);
        this.agentLoader = agentLoader;
        this.counters = counters;
        this.index = new ProbeIndex(this.probes);
    }

    public void install(final Instrumentation inst, boolean lateAttach) {
        if (probes.isEmpty()) {
            return;
        }
        ModuleReads.openJdkTargetsToBridge(inst, index.exactNames());
        final List<Class<?>> loadedEarlier = loadedCandidates(inst);
        inst.addTransformer(new PrefilterTransformer(), true);
        initThread = new Thread(new Runnable() {
            @Override
            public void run() {
                long t0 = System.nanoTime();
                try {
                    byteBuddy = AdviceTransformerFactory.create(probes, agentLoader, counters, transformedClasses);
                    AgentLog.debug("instrumentation engine ready in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                } catch (Throwable t) {
                    AgentLog.error("instrumentation engine failed to start; no class will be instrumented", t);
                } finally {
                    ready.countDown();
                }
                retransform(inst, loadedEarlier);
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
                    && inst.isModifiableClass(type)) {
                candidates.add(type);
            }
        }
        return candidates;
    }

    private void retransform(Instrumentation inst, List<Class<?>> candidates) {
        if (byteBuddy == null) {
            return;
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
        private final ThreadLocal<Boolean> inside = new ThreadLocal<Boolean>();

        @Override
        public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                                ProtectionDomain protectionDomain, byte[] classfileBuffer) {
            if (loader == agentLoader || !index.isCandidate(loader, className) || inside.get() != null
                    || Thread.currentThread() == initThread) {
                return null;
            }
            ClassFileTransformer delegate = byteBuddy;
            if (delegate == null) {
                long waitStart = System.nanoTime();
                delegate = awaitReady();
                AgentLog.debug(className + " waited " + (System.nanoTime() - waitStart) / 1_000_000
                        + " ms for the instrumentation engine");
                if (delegate == null) {
                    return null;
                }
            }
            inside.set(Boolean.TRUE);
            long t0 = System.nanoTime();
            try {
                return delegate.transform(loader, className, classBeingRedefined, protectionDomain, classfileBuffer);
            } catch (Throwable t) {
                AgentLog.warn("could not instrument " + className + "; it runs unchanged", t);
                return null;
            } finally {
                inside.remove();
                if (AgentLog.isDebug()) {
                    AgentLog.debug("transform of " + className + " took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                }
            }
        }
    }

    /** Exact class names of every probe, for tests and diagnostics. */
    public Set<String> exactTargets() {
        return index.exactNames();
    }
}
