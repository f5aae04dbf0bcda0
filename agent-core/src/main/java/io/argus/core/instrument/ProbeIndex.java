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
    /** Per class loader: can it see any hierarchy probe's super type? Start-up path only. */
    private final Map<ClassLoader, Boolean> loaderSeesHierarchyTypes =
            Collections.synchronizedMap(new WeakHashMap<ClassLoader, Boolean>());

    ProbeIndex(List<TypeProbe> probes) {
        for (TypeProbe probe : probes) {
            String internal = probe.typeName().replace('.', '/');
            if (probe.isHierarchy()) {
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
        if (hierarchyResources.isEmpty() || loader == null || IgnoredTypes.isIgnored(internalName)) {
            return false;
        }
        return seesHierarchyTypes(loader);
    }

    boolean isExact(String internalName) {
        return exactInternalNames.contains(internalName);
    }

    boolean hasHierarchyProbes() {
        return !hierarchyResources.isEmpty();
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

    Set<String> exactNames() {
        Set<String> names = new HashSet<String>();
        for (String internal : exactInternalNames) {
            names.add(internal.replace('/', '.'));
        }
        return names;
    }
}
