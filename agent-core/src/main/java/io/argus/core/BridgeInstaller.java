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

    /** Superclasses and interfaces before the classes that need them. */
    private static final String[] CLASSES = {
            "io.argus.bridge.ActiveSpan", "io.argus.bridge.Tags", "io.argus.bridge.ArgusHooks",
            "io.argus.bridge.ArgusHooks$1", "io.argus.bridge.Argus", "io.argus.bridge.ContextRunnable",
            "io.argus.bridge.ContextCallable",
    };

    private BridgeInstaller() {
    }

    public static void install(Instrumentation inst, File bridgeJar) throws IOException {
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
            for (String name : CLASSES) {
                if (isBootVisible(name)) {
                    continue;
                }
                byte[] bytes = read(jar, name.replace('.', '/') + ".class");
                define.invoke(unsafe, name, bytes, 0, bytes.length, null, null);
            }
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
