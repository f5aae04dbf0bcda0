package io.argus.core.instrument;

import io.argus.core.AgentLog;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Defines plugins' helper classes (see {@link io.argus.core.plugin.TypeProbe#helpers}) in the class
 * loader of a class being instrumented, once per loader, from the class files in the agent's loader.
 *
 * <p>It calls the loader's own {@code ClassLoader.defineClass}, so the helper is an ordinary class of
 * that loader: {@code loadClass} finds it first ({@code findLoadedClass}), child-first web application
 * loaders included. On Java 9+ that protected method is reached by opening {@code java.lang} of
 * {@code java.base} to the agent's module only, through {@link Instrumentation#redefineModule}: no
 * {@code sun.misc.Unsafe} (ByteBuddy's {@code ClassInjector.UsingReflection} needs it from Java 9 on,
 * and is unavailable in the safe mode the agent runs ByteBuddy in), no illegal-access warning, and the
 * application gains no access. {@code ClassInjector.UsingLookup} is no alternative: a lookup defines
 * classes only in its own package, and the helpers' package is not the library's.
 *
 * <p>Nothing runs until a class with helpers is transformed. No lock is held while a class is defined:
 * a loader that is not parallel-capable locks itself while defining, and a lock of ours around that
 * could deadlock against a thread that holds the loader while it loads a probed class. Two threads that
 * race to define the same helper both find it defined afterwards.
 */
final class HelperInjector {

    private final ClassLoader agentLoader;
    private final Instrumentation inst;
    private final Map<String, byte[]> classFiles = new ConcurrentHashMap<String, byte[]>();
    /** Per loader, the helpers it has; a loader that is collected takes its entry with it. */
    private final Map<ClassLoader, Set<String>> defined =
            Collections.synchronizedMap(new WeakHashMap<ClassLoader, Set<String>>());
    private volatile Method defineClass;
    private volatile Method findLoadedClass;

    /**
     * @param inst opens {@code java.lang} to the agent on Java 9+; without it (unit tests) the JVM must
     *             have been started with that package open
     */
    HelperInjector(ClassLoader agentLoader, Instrumentation inst) {
        this.agentLoader = agentLoader;
        this.inst = inst;
    }

    /** Whether every helper's class file is in the agent's loader; checked once at start-up, without loading. */
    boolean exist(List<String> classNames, String pluginName) {
        for (String name : classNames) {
            if (agentLoader.getResource(ClassFiles.resourceName(name)) == null) {
                AgentLog.error("plugin " + pluginName + ": helper class " + name + " not found; probe skipped");
                return false;
            }
        }
        return true;
    }

    /**
     * Defines those of {@code classNames} that {@code loader} does not have yet, in order, with
     * {@code domain} (the instrumented class's, so a helper has the permissions of the advice inlined
     * next to it). Throws when one cannot be defined; the caller then leaves its class unchanged.
     */
    /** As {@link #inject(ClassLoader, ProtectionDomain, List)}, with the helpers' class files known already (from the class cache). */
    void inject(ClassLoader loader, ProtectionDomain domain, Map<String, byte[]> classFiles) throws Exception {
        for (Map.Entry<String, byte[]> known : classFiles.entrySet()) {
            this.classFiles.putIfAbsent(known.getKey(), known.getValue());
        }
        inject(loader, domain, new ArrayList<String>(classFiles.keySet()));
    }

    /** The class files of {@code classNames}, in order, as the agent's loader has them. */
    Map<String, byte[]> classFiles(List<String> classNames) throws IOException {
        Map<String, byte[]> files = new java.util.LinkedHashMap<String, byte[]>();
        for (String name : classNames) {
            files.put(name, classFile(name));
        }
        return files;
    }

    void inject(ClassLoader loader, ProtectionDomain domain, List<String> classNames) throws Exception {
        if (classNames.isEmpty()) {
            return;
        }
        if (loader == null) {
            throw new IllegalStateException("helper classes cannot be defined in the boot class loader");
        }
        Set<String> present = defined.get(loader);
        if (present == null) {
            present = Collections.newSetFromMap(new ConcurrentHashMap<String, Boolean>());
            synchronized (defined) {
                Set<String> raced = defined.get(loader);
                if (raced == null) {
                    defined.put(loader, present);
                } else {
                    present = raced;
                }
            }
        }
        if (present.containsAll(classNames)) {
            return;
        }
        List<String> pending = new ArrayList<String>();
        for (String name : classNames) {
            if (!present.contains(name)) {
                pending.add(name);
            }
        }
        // a helper whose super type is another helper fails until that one exists: define in passes
        while (!pending.isEmpty()) {
            int before = pending.size();
            Throwable lastFailure = null;
            for (java.util.Iterator<String> it = pending.iterator(); it.hasNext(); ) {
                String name = it.next();
                try {
                    defineIfAbsent(loader, domain, name);
                    present.add(name);
                    it.remove();
                } catch (NoClassDefFoundError e) {
                    lastFailure = e;
                }
            }
            if (pending.size() == before) {
                throw new IllegalStateException("cannot define helper classes " + pending + " in " + loader, lastFailure);
            }
        }
        if (AgentLog.isDebug()) {
            AgentLog.debug("helper classes " + classNames + " defined in " + loader);
        }
    }

    private void defineIfAbsent(ClassLoader loader, ProtectionDomain domain, String name) throws Exception {
        Method find = findLoadedClass();
        if (find.invoke(loader, name) != null) {
            return;
        }
        byte[] bytes = classFile(name);
        try {
            defineClass().invoke(loader, name, bytes, 0, bytes.length, domain);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof LinkageError && find.invoke(loader, name) != null) {
                return; // another thread defined it first
            }
            if (cause instanceof NoClassDefFoundError) {
                throw (NoClassDefFoundError) cause;
            }
            throw e;
        }
    }

    private byte[] classFile(String name) throws IOException {
        byte[] bytes = classFiles.get(name);
        if (bytes == null) {
            bytes = ClassFiles.read(agentLoader, ClassFiles.resourceName(name));
            if (bytes == null) {
                throw new IOException("helper class " + name + " not found among the agent's classes");
            }
            classFiles.put(name, bytes);
        }
        return bytes;
    }

    private Method defineClass() throws Exception {
        Method method = defineClass;
        if (method == null) {
            method = accessible("defineClass", String.class, byte[].class, int.class, int.class, ProtectionDomain.class);
            defineClass = method;
        }
        return method;
    }

    private Method findLoadedClass() throws Exception {
        Method method = findLoadedClass;
        if (method == null) {
            method = accessible("findLoadedClass", String.class);
            findLoadedClass = method;
        }
        return method;
    }

    private Method accessible(String name, Class<?>... parameterTypes) throws Exception {
        if (inst != null) {
            ModuleReads.openToAgent(inst, ClassLoader.class, HelperInjector.class);
        }
        Method method = ClassLoader.class.getDeclaredMethod(name, parameterTypes);
        method.setAccessible(true);
        return method;
    }
}
