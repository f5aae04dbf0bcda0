package io.argus.core.instrument;

import io.argus.bridge.state.FieldOwner;
import io.argus.core.AgentLog;
import io.argus.core.state.FieldRegistry;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gives the plugins' owner classes their fields ({@link FieldInjection}) as they load, so that an untraced
 * request keeps its per-request state in a real field, not in the map, and allocates nothing. It runs
 * before the engine's advice ({@link AgentTransformer}), on a retransformation too, where it adds the same
 * fields again to a class that got them as it loaded (a retransformation must not change a class's fields)
 * and nothing to one that did not.
 */
public final class OwnerFieldsTransformer implements ClassFileTransformer {

    /** Appended to an owner's name in the class cache; its entry there is the class file with the fields. */
    static final String FIELDS_ENTRY = "#fields";

    private final ClassLoader agentLoader;
    private final AtomicLong transformedClasses;
    private final SuperTypeWalk superTypes = new SuperTypeWalk();
    /** By internal name; replaced, never changed, when owners are added. */
    private volatile Map<String, FieldInjection> injections = new HashMap<String, FieldInjection>();
    /** The engine's class cache: a restart takes each owner's class file with its fields from it. */
    private volatile WovenClassCache cache = WovenClassCache.disabled();

    private OwnerFieldsTransformer(ClassLoader agentLoader, AtomicLong transformedClasses) {
        this.agentLoader = agentLoader;
        this.transformedClasses = transformedClasses;
    }

    /**
     * The transformer for {@code owners}; JDK owner classes' modules are made to read the bridge first. Not
     * registered: it runs behind the start gate ({@link AgentTransformer}).
     *
     * @param transformedClasses counts the classes it adds fields to
     */
    public static OwnerFieldsTransformer create(Instrumentation inst, ClassLoader agentLoader,
                                                Map<String, FieldRegistry.OwnerFields> owners,
                                                AtomicLong transformedClasses) {
        OwnerFieldsTransformer transformer = new OwnerFieldsTransformer(agentLoader, transformedClasses);
        transformer.add(inst, owners);
        return transformer;
    }

    /** Not registered with the JVM, and without module reads: for unit tests. */
    static OwnerFieldsTransformer forTest(ClassLoader agentLoader, Map<String, FieldRegistry.OwnerFields> owners) {
        OwnerFieldsTransformer transformer = new OwnerFieldsTransformer(agentLoader, new AtomicLong());
        transformer.put(owners);
        return transformer;
    }

    /** The class cache the engine uses; set before the gate opens. */
    public void useCache(WovenClassCache cache) {
        this.cache = cache;
    }

    /** The owner classes it adds fields to, by internal name. */
    public Set<String> ownerClasses() {
        return injections.keySet();
    }

    /** Adds owners declared after start-up (a plugin whose manifest misses a field); later loads get them. */
    public synchronized void add(Instrumentation inst, Map<String, FieldRegistry.OwnerFields> owners) {
        ModuleReads.openJdkTargetsToBridge(inst, owners.keySet());
        put(owners);
    }

    private synchronized void put(Map<String, FieldRegistry.OwnerFields> owners) {
        Map<String, FieldInjection> next = new HashMap<String, FieldInjection>(injections);
        for (FieldRegistry.OwnerFields owner : owners.values()) {
            next.put(owner.className().replace('.', '/'), new FieldInjection(owner));
        }
        injections = next;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (className == null || loader == agentLoader) {
            return null;
        }
        FieldInjection injection = injections.get(className);
        if (injection == null || (classBeingRedefined != null && !declaresFieldOwner(classBeingRedefined))) {
            return null;
        }
        try {
            byte[] injected = withFields(injection, loader, className, classfileBuffer);
            if (injected != null) {
                transformedClasses.incrementAndGet();
                if (AgentLog.isDebug()) {
                    AgentLog.debug("fields added to " + className.replace('/', '.'));
                }
            }
            return injected;
        } catch (Throwable t) {
            AgentLog.warn("could not add fields to " + className + "; its objects keep their state in the map", t);
            return null;
        }
    }

    /**
     * The class file with the fields, from the class cache when it kept them for exactly these bytes (and the
     * same slots, and the same answer to "serializable?"), else made with ASM and kept.
     */
    private byte[] withFields(FieldInjection injection, ClassLoader loader, String className, byte[] classFile) {
        boolean serializable = FieldInjection.isSerializable(loader, className, classFile, superTypes);
        WovenClassCache kept = cache;
        if (!kept.isEnabled()) {
            return injection.inject(className, classFile, serializable);
        }
        // a name no class has, so that the start gate's early look-up never takes this for the woven class
        String entryName = className + FIELDS_ENTRY;
        String described = injection.describe(serializable);
        WovenClassCache.Entry entry = kept.find(entryName, described, classFile);
        if (entry != null) {
            return entry.output;
        }
        byte[] injected = injection.inject(className, classFile, serializable);
        kept.store(entryName, described, classFile, injected, Collections.<String, byte[]>emptyMap());
        return injected;
    }

    /**
     * Runs one injection on a class of the agent's own, result dropped: the code it needs is loaded on the
     * start-up thread, not while the application defines its first owner class (often on its first request).
     * Not with a warm class cache: then the owner classes' fields most likely come from it, and ASM is not needed.
     */
    public void warmUp() {
        Map<String, FieldInjection> current = injections;
        if (!current.isEmpty() && !cache.isWarm()) {
            try {
                warmUp(current.values().iterator().next());
            } catch (Throwable t) {
                AgentLog.warn("the field injection's warm-up failed", t);
            }
        }
    }

    private void warmUp(FieldInjection anyOwner) {
        String name = WarmUp.class.getName().replace('.', '/');
        byte[] classFile = ClassFiles.read(agentLoader, name + ".class");
        if (classFile != null) {
            anyOwner.inject(name, classFile, FieldInjection.isSerializable(agentLoader, name, classFile, superTypes));
        }
    }

    /** Only ever read as bytes, to warm the injection up. */
    static final class WarmUp {
        private Object value;

        Object value() {
            return value;
        }
    }

    /** Whether {@code classFile} implements the bridge's {@code FieldOwner}: this transformer gave it fields. */
    static boolean hasFields(byte[] classFile) {
        TypeHeader header = TypeHeader.read(classFile);
        if (header != null) {
            for (String declared : header.interfaces) {
                if (declared.equals(FieldInjection.FIELD_OWNER)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean declaresFieldOwner(Class<?> type) {
        for (Class<?> declared : type.getInterfaces()) {
            if (declared == FieldOwner.class) {
                return true;
            }
        }
        return false;
    }
}
