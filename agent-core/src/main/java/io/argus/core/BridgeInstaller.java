package io.argus.core;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Puts the bridge classes into the bootstrap class loader, where advice inlined into any class
 * can reach them. They are defined one by one rather than by appending a jar to the bootstrap
 * class path, because appending switches off class data sharing for every application class
 * (a start-up cost, and a JVM warning on the application's console). Falls back to appending.
 * Must not reference the bridge itself: it runs before the bridge exists.
 */
public final class BridgeInstaller {

    private static final String BRIDGE_PREFIX = "io/argus/bridge/";
    /**
     * One class of the bridge, looked up to tell whether the boot loader has the bridge already (an agent
     * started twice): the classes are defined together, so one answers for all, and a look-up per class
     * would throw a {@code ClassNotFoundException} per class at every start.
     */
    private static final String MARKER = "io.argus.bridge.AgentStatus";

    private BridgeInstaller() {
    }

    public static void install(Instrumentation inst, File bridgeJar) throws IOException {
        if (isBootVisible(MARKER)) {
            return;
        }
        try (JarFile jar = new JarFile(bridgeJar)) {
            if (defineInBootLoader(inst, jar)) {
                return;
            }
        }
        inst.appendToBootstrapClassLoaderSearch(new JarFile(bridgeJar));
    }

    private static boolean defineInBootLoader(Instrumentation inst, JarFile jar) {
        try {
            Object unsafe;
            Method define;
            Class<?> unsafeClass;
            try {
                unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
                exportToAgent(inst, unsafeClass);
                unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
            } catch (ClassNotFoundException java8) {
                unsafeClass = Class.forName("sun.misc.Unsafe");
                Field field = unsafeClass.getDeclaredField("theUnsafe");
                field.setAccessible(true);
                unsafe = field.get(null);
            }
            define = unsafeClass.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
                    ClassLoader.class, ProtectionDomain.class);
            defineAll(jar, unsafe, define);
            return true;
        } catch (Throwable t) {
            AgentLog.debug("defining the bridge in the boot loader failed, appending its jar instead: " + t);
            return false;
        }
    }

    /** Exports jdk.internal.misc to the agent's class loader only, never to the application. */
    private static void exportToAgent(Instrumentation inst, Class<?> unsafeClass) throws Exception {
        Class<?> moduleClass = Class.forName("java.lang.Module");
        Method getModule = Class.class.getMethod("getModule");
        Object javaBase = getModule.invoke(unsafeClass);
        Object agentModule = getModule.invoke(BridgeInstaller.class);
        Map<String, Set<?>> exports = Collections.<String, Set<?>>singletonMap("jdk.internal.misc",
                Collections.singleton(agentModule));
        Instrumentation.class.getMethod("redefineModule", moduleClass, Set.class, Map.class, Map.class, Set.class, Map.class)
                .invoke(inst, javaBase, Collections.emptySet(), exports, Collections.emptyMap(),
                        Collections.emptySet(), Collections.emptyMap());
    }

    /**
     * Defines every class of the bridge jar. A class whose super type is not defined yet fails
     * and is tried again in the next pass, so no fixed order has to be kept in step with the bridge.
     */
    private static void defineAll(JarFile jar, Object unsafe, Method define) throws Exception {
        Map<String, byte[]> pending = new java.util.LinkedHashMap<String, byte[]>();
        for (java.util.Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
            String entry = entries.nextElement().getName();
            if (entry.startsWith(BRIDGE_PREFIX) && entry.endsWith(".class")) {
                pending.put(entry.substring(0, entry.length() - 6).replace('/', '.'), read(jar, entry));
            }
        }
        while (!pending.isEmpty()) {
            int before = pending.size();
            Throwable lastFailure = null;
            for (java.util.Iterator<Map.Entry<String, byte[]>> it = pending.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, byte[]> next = it.next();
                try {
                    define.invoke(unsafe, next.getKey(), next.getValue(), 0, next.getValue().length, null, null);
                    it.remove();
                } catch (java.lang.reflect.InvocationTargetException e) {
                    if (!(e.getCause() instanceof NoClassDefFoundError)) {
                        throw e;
                    }
                    lastFailure = e.getCause();
                }
            }
            if (pending.size() == before) {
                throw new IllegalStateException("cannot define bridge classes " + pending.keySet(), lastFailure);
            }
        }
    }

    private static boolean isBootVisible(String name) {
        try {
            Class.forName(name, false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static byte[] read(JarFile jar, String entryName) throws IOException {
        JarEntry entry = jar.getJarEntry(entryName);
        if (entry == null) {
            throw new IOException(entryName + " missing from " + jar.getName());
        }
        try (InputStream in = jar.getInputStream(entry)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        }
    }
}
