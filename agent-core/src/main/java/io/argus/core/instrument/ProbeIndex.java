package io.argus.core.instrument;

import io.argus.core.plugin.TypeProbe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Answers "could any probe apply to this class?" from its name and class loader alone, so that
 * almost every class the application loads is dismissed with a hash look-up and a few prefix
 * checks, before ByteBuddy parses anything.
 */
final class ProbeIndex {

    private final Set<String> exactInternalNames = new HashSet<String>();
    private final List<String> hierarchyResources = new ArrayList<String>();
    /** Hierarchy probes with simple-name hints: their super types and hints, in step. */
    private final List<String> hintedResources = new ArrayList<String>();
    private final List<String[]> hints = new ArrayList<String[]>();
    /** Every hierarchy probe's super type (binary name) and its hints (null: any name), in step. */
    private final List<String> superTypes = new ArrayList<String>();
    private final List<String[]> superTypeHints = new ArrayList<String[]>();
    /** Per class loader: can it see any hierarchy probe's super type? Start-up path only. */
    private final Map<ClassLoader, Boolean> loaderSeesHierarchyTypes =
            Collections.synchronizedMap(new WeakHashMap<ClassLoader, Boolean>());
    private final Map<ClassLoader, Map<String, Boolean>> loaderSeesResource =
            Collections.synchronizedMap(new WeakHashMap<ClassLoader, Map<String, Boolean>>());

    ProbeIndex(List<TypeProbe> probes) {
        for (TypeProbe probe : probes) {
            String internal = probe.typeName().replace('.', '/');
            if (probe.isHierarchy()) {
                superTypes.add(probe.typeName());
                superTypeHints.add(probe.nameHints());
            }
            if (probe.isHierarchy() && probe.nameHints() != null) {
                hintedResources.add(internal + ".class");
                hints.add(probe.nameHints());
            } else if (probe.isHierarchy()) {
                hierarchyResources.add(internal + ".class");
            } else {
                exactInternalNames.add(internal);
            }
        }
    }

    boolean isCandidate(ClassLoader loader, String internalName) {
        if (internalName == null) {
            return false;
        }
        if (exactInternalNames.contains(internalName)) {
            return true;
        }
        if (loader == null) {
            return false;
        }
        if (!hints.isEmpty() && isHintedCandidate(loader, internalName)) {
            return true;
        }
        if (hierarchyResources.isEmpty() || IgnoredTypes.isIgnored(internalName)) {
            return false;
        }
        return seesHierarchyTypes(loader);
    }

    private boolean isHintedCandidate(ClassLoader loader, String internalName) {
        for (int i = 0; i < hints.size(); i++) {
            if (TypeProbe.simpleNameContainsAny(internalName, hints.get(i))
                    && !IgnoredTypes.isPlatformOrGenerated(internalName)
                    && sees(loader, hintedResources.get(i))) {
                return true;
            }
        }
        return false;
    }

    /** Can {@code loader} see {@code resource}? Cached per loader and resource; start-up path only. */
    private boolean sees(ClassLoader loader, String resource) {
        Map<String, Boolean> known = loaderSeesResource.get(loader);
        if (known == null) {
            known = new java.util.concurrent.ConcurrentHashMap<String, Boolean>();
            loaderSeesResource.put(loader, known);
        }
        Boolean sees = known.get(resource);
        if (sees == null) {
            sees = loader.getResource(resource) != null;
            known.put(resource, sees);
        }
        return sees;
    }

    private boolean seesHierarchyTypes(ClassLoader loader) {
        Boolean known = loaderSeesHierarchyTypes.get(loader);
        if (known == null) {
            boolean sees = false;
            for (String resource : hierarchyResources) {
                if (loader.getResource(resource) != null) {
                    sees = true;
                    break;
                }
            }
            known = sees;
            loaderSeesHierarchyTypes.put(loader, known);
        }
        return known;
    }

    /**
     * For a class that is already loaded: could a probe apply to it? An exact name, or a class (not an
     * interface) whose hierarchy, walked by reflection, has a probed super type. Loads nothing, so the
     * classes that only {@link #isCandidate} let through (a web server's {@code HttpConnection} for the
     * JDBC probe's "Connection" hint) are not retransformed for nothing.
     */
    boolean matchesLoaded(Class<?> type) {
        if (exactInternalNames.contains(type.getName().replace('.', '/'))) {
            return true;
        }
        if (type.isInterface()) {
            return false;
        }
        for (int i = 0; i < superTypes.size(); i++) {
            String[] probeHints = superTypeHints.get(i);
            if ((probeHints == null || TypeProbe.simpleNameContainsAny(type.getName(), probeHints))
                    && hasSuperType(type, superTypes.get(i))) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasSuperType(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(name) || anyInterfaceIs(c.getInterfaces(), name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyInterfaceIs(Class<?>[] interfaces, String name) {
        for (Class<?> i : interfaces) {
            if (i.getName().equals(name) || anyInterfaceIs(i.getInterfaces(), name)) {
                return true;
            }
        }
        return false;
    }

    Set<String> exactNames() {
        Set<String> names = new HashSet<String>();
        for (String internal : exactInternalNames) {
            names.add(internal.replace('/', '.'));
        }
        return names;
    }
}
