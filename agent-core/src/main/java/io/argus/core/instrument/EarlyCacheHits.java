package io.argus.core.instrument;

import io.argus.core.AgentLog;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The class cache at the start gate, before the engine is ready: a probed class that loads that early, and
 * whose woven form the last start with this configuration kept ({@link WovenClassCache#openEarly}), is
 * defined from it at once instead of waiting for the engine. Its helpers are defined first; its advice, if it
 * runs before the agent is ready, waits in the bridge for the recorders and fields it needs.
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
    /**
     * Candidates the cache had no entry for, which therefore waited for the engine: by loader and name. The
     * engine keeps an entry for each one no probe applies to, so that the next start lets it through at once
     * (a class a name hint lets in, such as Druid's {@code StartupInjectorBuilder} for log4j2's
     * {@code *Injector}, held its application's {@code main} some 55 ms at every start).
     */
    private final Map<String, Boolean> missed = new ConcurrentHashMap<String, Boolean>();
    /** The JDK's own loaders' classes wait: their modules must first be made to read the bridge. */
    private final ClassLoader platformLoader = ClassLoader.getSystemClassLoader().getParent();

    public EarlyCacheHits(WovenClassCache cache, ClassLoader agentLoader, Instrumentation inst) {
        this.cache = cache;
        this.helpers = new HelperInjector(agentLoader, inst);
    }

    /** Classes defined here with advice, which the engine checks against the probes in force. */
    public int definedWovenClasses() {
        return definedWoven.get();
    }

    /** Whether the class {@code loadKey} missed the cache here; true once. */
    boolean takeMissed(String loadKey) {
        return !missed.isEmpty() && missed.remove(loadKey) != null;
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
        if (classBeingRedefined != null || className == null || loader == null || loader == platformLoader) {
            return null;
        }
        try {
            WovenClassCache.Entry entry = cache.findAnyProbes(className, classfileBuffer);
            String loadKey = InstrumentationEngine.loadKey(loader, className);
            if (entry == null) {
                missed.put(loadKey, Boolean.TRUE);
                return null;
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
            return entry.output != null ? entry.output : classfileBuffer;
        } catch (Throwable t) {
            AgentLog.debug("class cache: " + className + " waits for the engine (" + t + ")");
            return null;
        }
    }
}
