package io.argus.core.instrument;

import io.argus.bridge.ActiveSpan;
import io.argus.core.AgentLog;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * On Java 9+, a JDK module must read the bridge's module (and, for a module of the platform loader,
 * that loader's unnamed module, where helper classes go) before advice inlined into its classes can
 * call them. Done once at start-up for the modules that hold exact probe targets.
 * Written with reflection because the agent is compiled for Java 8.
 */
final class ModuleReads {

    private ModuleReads() {
    }

    static void openJdkTargetsToBridge(Instrumentation inst, Set<String> classNames) {
        Set<String> packages = new HashSet<String>();
        for (String name : classNames) {
            int dot = name.lastIndexOf('.');
            if (dot > 0 && isJdkPackage(name)) {
                packages.add(name.substring(0, dot));
            }
        }
        if (packages.isEmpty()) {
            return;
        }
        try {
            Class<?> moduleClass = Class.forName("java.lang.Module");
            Class<?> layerClass = Class.forName("java.lang.ModuleLayer");
            Object bridgeModule = Class.class.getMethod("getModule").invoke(ActiveSpan.class);
            Object bootLayer = layerClass.getMethod("boot").invoke(null);
            Set<?> modules = (Set<?>) layerClass.getMethod("modules").invoke(bootLayer);
            Method getPackages = moduleClass.getMethod("getPackages");
            Method getLoader = moduleClass.getMethod("getClassLoader");
            Method unnamedModule = ClassLoader.class.getMethod("getUnnamedModule");
            Method redefine = Instrumentation.class.getMethod("redefineModule", moduleClass, Set.class,
                    java.util.Map.class, java.util.Map.class, Set.class, java.util.Map.class);
            for (Object module : modules) {
                Set<?> modulePackages = (Set<?>) getPackages.invoke(module);
                if (!Collections.disjoint(modulePackages, packages)) {
                    Set<Object> reads = new HashSet<Object>();
                    reads.add(bridgeModule);
                    ClassLoader loader = (ClassLoader) getLoader.invoke(module);
                    if (loader != null) {
                        // helper classes are defined in the loader's unnamed module
                        reads.add(unnamedModule.invoke(loader));
                    }
                    redefine.invoke(inst, module, reads,
                            Collections.emptyMap(), Collections.emptyMap(), Collections.emptySet(), Collections.emptyMap());
                }
            }
        } catch (ClassNotFoundException java8) {
            // no modules: nothing to open
        } catch (Exception e) {
            AgentLog.warn("could not let JDK modules read the agent bridge; JDK probes may fail", e);
        }
    }

    /**
     * Opens the package of {@code member} (a JDK class) to the module of {@code agentClass} only, so
     * that the agent may reflect on its non-public members. Nothing to do on Java 8.
     */
    static void openToAgent(Instrumentation inst, Class<?> member, Class<?> agentClass) throws Exception {
        Class<?> moduleClass;
        try {
            moduleClass = Class.forName("java.lang.Module");
        } catch (ClassNotFoundException java8) {
            return;
        }
        Method getModule = Class.class.getMethod("getModule");
        Object target = getModule.invoke(member);
        Object agentModule = getModule.invoke(agentClass);
        String packageName = member.getName().substring(0, member.getName().lastIndexOf('.'));
        if ((Boolean) moduleClass.getMethod("isOpen", String.class, moduleClass).invoke(target, packageName, agentModule)) {
            return;
        }
        Instrumentation.class.getMethod("redefineModule", moduleClass, Set.class, java.util.Map.class, java.util.Map.class,
                Set.class, java.util.Map.class)
                .invoke(inst, target, Collections.emptySet(), Collections.emptyMap(),
                        Collections.singletonMap(packageName, Collections.singleton(agentModule)),
                        Collections.emptySet(), Collections.emptyMap());
    }

    private static boolean isJdkPackage(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }
}
