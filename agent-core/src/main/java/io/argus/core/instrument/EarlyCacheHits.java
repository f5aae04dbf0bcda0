package io.argus.core.instrument;

import io.argus.core.AgentLog;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The class cache at the start gate, before the engine is ready: a probed class that loads that early, and
 * whose woven form the last start with this configuration kept ({@link WovenClassCache#openEarly}), is
 * defined from it at once instead of waiting for the engine. An owner class gets its fields first
 * ({@link #addFields}: the entry was made from the class with them), its helpers are defined first, and its
 * advice, if it runs before the agent is ready, waits in the bridge for the recorders and fields it needs.
 * The JDK's executors, loaded long before, get their after-gate probes from the cache the same way
 * ({@link #retransformAfterGateTypes}).
 *
 * <p>The probes are not known yet, so the entry's own probes are taken; the engine checks them once it is
 * ready and retransforms a class whose probes differ ({@link InstrumentationEngine#retransformLoaded}).
 * Anything that goes wrong is a miss: the gate holds the class as it would without the cache.
 */
public final class EarlyCacheHits implements ClassFileTransformer {

    private final WovenClassCache cache;
    private final HelperInjector helpers;
    /** The classes defined here, by loader and name: the probes of the entry each was defined from. */
    private final Map<String, String> defined = new ConcurrentHashMap<String, String>();
    /** Of those, the ones defined with advice ("" probes: kept as they are, which a probe did not apply to). */
    private final AtomicInteger definedWoven = new AtomicInteger();
    /** The JDK's own loaders' classes wait unless their modules were made to read the bridge ({@link #serveJdkTypes}). */
    private final ClassLoader platformLoader = ClassLoader.getSystemClassLoader().getParent();
    /** The JDK's probed classes (internal names) it may serve. */
    private volatile Set<String> jdkTypes = Collections.emptySet();
    /** The owner classes' fields, added before the look-up; null: none. */
    private volatile ClassFileTransformer fields;

    public EarlyCacheHits(WovenClassCache cache, ClassLoader agentLoader, Instrumentation inst) {
        this.cache = cache;
        this.helpers = new HelperInjector(agentLoader, inst);
    }

    /**
     * Makes the JDK's modules that hold the probed types {@code typeNames} read the bridge, as the engine does, so
     * that those classes too are served from the cache when they load (the JDK's HTTP clients and server).
     */
    public void serveJdkTypes(Instrumentation inst, Set<String> typeNames) {
        ModuleReads.openJdkTargetsToBridge(inst, typeNames);
        Set<String> internal = new HashSet<String>();
        for (String name : typeNames) {
            internal.add(name.replace('.', '/'));
        }
        jdkTypes = internal;
    }

    /** Adds the owner classes' fields before the look-up, as the engine does before it weaves. */
    public void addFields(ClassFileTransformer ownerFields) {
        this.fields = ownerFields;
    }

    /**
     * Retransforms the JDK's classes {@code typeNames} (the after-gate types: the executors, whose probes carry
     * the trace context across threads) with their woven forms from the cache, loading those not loaded yet,
     * so that they carry it before the engine is built. True when every one that exists was; false when the
     * cache missed one, which the engine must then retransform.
     */
    public boolean retransformAfterGateTypes(Instrumentation inst, Set<String> typeNames) {
        if (typeNames.isEmpty()) {
            return true;
        }
        if (!inst.isRetransformClassesSupported()) {
            return false;
        }
        final Set<Class<?>> targets = new LinkedHashSet<Class<?>>();
        for (String name : typeNames) {
            try {
                Class<?> type = Class.forName(name, false, null);
                if (!inst.isModifiableClass(type)) {
                    return false;
                }
                targets.add(type);
            } catch (ClassNotFoundException e) {
                // not in this JDK (java.lang.VirtualThread before 21)
            } catch (LinkageError e) {
                return false;
            }
        }
        final Map<Class<?>, WovenClassCache.Entry> found = new HashMap<Class<?>, WovenClassCache.Entry>();
        ClassFileTransformer fromCache = new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                                    ProtectionDomain protectionDomain, byte[] classfileBuffer) {
                if (classBeingRedefined == null || !targets.contains(classBeingRedefined)) {
                    return null;
                }
                WovenClassCache.Entry entry = cache.findAnyProbes(className, RebuiltClassFile.withMethodsSorted(classfileBuffer));
                if (entry == null || entry.output == null || !entry.helpers.isEmpty() || entry.probes.isEmpty()) {
                    return null;
                }
                found.put(classBeingRedefined, entry);
                return entry.output;
            }
        };
        try {
            ModuleReads.openJdkTargetsToBridge(inst, typeNames); // before any of them calls the bridge
            inst.addTransformer(fromCache, true);
            try {
                inst.retransformClasses(targets.toArray(new Class<?>[0]));
            } finally {
                inst.removeTransformer(fromCache);
            }
        } catch (Throwable t) {
            AgentLog.debug("class cache: the after-gate types wait for the engine (" + t + ")");
        }
        for (Map.Entry<Class<?>, WovenClassCache.Entry> done : found.entrySet()) {
            defined.put(InstrumentationEngine.loadKey(null, done.getKey().getName().replace('.', '/')), done.getValue().probes);
            definedWoven.incrementAndGet();
            if (AgentLog.isDebug()) {
                AgentLog.debug("instrumented " + done.getKey().getName() + " from the class cache before the engine was ready");
            }
        }
        if (AgentLog.isDebug()) {
            AgentLog.debug("after-gate probes: " + found.size() + " classes retransformed for them from the class cache,"
                    + " before the engine, on " + Thread.currentThread().getName());
        }
        if (found.size() < targets.size()) {
            // those it had are in; the engine, built at once, puts in the others
            AgentLog.debug("class cache: " + (targets.size() - found.size()) + " of the after-gate types "
                    + typeNames + " missed it");
            return false;
        }
        return true;
    }

    /** Classes defined here with advice, which the engine checks against the probes in force. */
    public int definedWovenClasses() {
        return definedWoven.get();
    }

    HelperInjector helpers() {
        return helpers;
    }

    /** The probes of the entry the class {@code loadKey} was defined from; null when it was not defined here. */
    String probesDefinedWith(String loadKey) {
        return defined.get(loadKey);
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        boolean jdkLoader = loader == null || loader == platformLoader;
        if (classBeingRedefined != null || className == null || (jdkLoader && !jdkTypes.contains(className))) {
            return null;
        }
        try {
            ClassFileTransformer ownerFields = fields;
            byte[] withFields = ownerFields == null ? null
                    : ownerFields.transform(loader, className, null, protectionDomain, classfileBuffer);
            byte[] input = withFields != null ? withFields : classfileBuffer;
            WovenClassCache.Entry entry = cache.findAnyProbes(className, input);
            String loadKey = InstrumentationEngine.loadKey(loader, className);
            if (entry == null) {
                if (AgentLog.isDebug()) {
                    AgentLog.debug("class cache: no entry for " + className.replace('/', '.') + "; it waits for the engine");
                }
                return null;
            }
            if (loader == null && !entry.helpers.isEmpty()) {
                return null; // helpers are defined in a class's own loader, which the boot loader's classes have not
            }
            helpers.inject(loader, protectionDomain, entry.helpers);
            defined.put(loadKey, entry.probes);
            if (!entry.probes.isEmpty()) {
                definedWoven.incrementAndGet();
            }
            if (AgentLog.isDebug()) {
                AgentLog.debug(entry.probes.isEmpty()
                        ? "let " + className.replace('/', '.') + " through as it is: the class cache says no probe applies"
                        : "instrumented " + className.replace('/', '.') + " from the class cache before the engine was ready");
            }
            return entry.output != null ? entry.output : input;
        } catch (Throwable t) {
            AgentLog.debug("class cache: " + className + " waits for the engine (" + t + ")");
            return null;
        }
    }
}
