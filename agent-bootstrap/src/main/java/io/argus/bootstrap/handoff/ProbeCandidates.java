package io.argus.bootstrap.handoff;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * "Could a probe apply to this class?" from its name and class loader alone: an exact name is a hash
 * look-up; a hierarchy probe's candidates are classes, outside the ignored packages, of loaders that can
 * see its super type (with name hints: whose simple name contains one). Almost every class the
 * application loads is dismissed here, before anything parses it. The start gate asks it from the plugins'
 * build-time index, before the engine exists; the engine asks it from the probes themselves.
 */
public final class ProbeCandidates {

    /** Internal names ({@code org/eclipse/jetty/server/Server}). */
    private final Set<String> exact;
    /** Hierarchy probes with hints: their super types' class resources, and their hints, in step. */
    private final List<String> hintedResources;
    private final List<String[]> hints;
    /** Hierarchy probes without hints: their super types' class resources. */
    private final List<String> hierarchyResources;
    private final Map<ClassLoader, Map<String, Boolean>> loaderSeesResource =
            Collections.synchronizedMap(new WeakHashMap<ClassLoader, Map<String, Boolean>>());

    private ProbeCandidates(Builder builder) {
        exact = new HashSet<String>(builder.exact);
        hintedResources = new ArrayList<String>(builder.hintedResources);
        hints = new ArrayList<String[]>(builder.hints);
        hierarchyResources = new ArrayList<String>(builder.hierarchyResources);
    }

    public static Builder builder() {
        return new Builder();
    }

    public boolean isEmpty() {
        return exact.isEmpty() && hints.isEmpty() && hierarchyResources.isEmpty();
    }

    public boolean isExact(String internalName) {
        return exact.contains(internalName);
    }

    public boolean isCandidate(ClassLoader loader, String internalName) {
        if (internalName == null) {
            return false;
        }
        if (exact.contains(internalName)) {
            return true;
        }
        if (loader == null) {
            return false;
        }
        for (int i = 0; i < hints.size(); i++) {
            if (simpleNameContainsAny(internalName, hints.get(i))
                    && !IgnoredTypes.isPlatformOrGenerated(internalName)
                    && sees(loader, hintedResources.get(i))) {
                return true;
            }
        }
        if (hierarchyResources.isEmpty() || IgnoredTypes.isIgnored(internalName)) {
            return false;
        }
        for (String resource : hierarchyResources) {
            if (sees(loader, resource)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the simple name of {@code className} (dotted or internal form) contains one of the hints. */
    public static boolean simpleNameContainsAny(String className, String[] hints) {
        int start = Math.max(className.lastIndexOf('/'), className.lastIndexOf('.')) + 1;
        for (String hint : hints) {
            if (className.indexOf(hint, start) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** Can {@code loader} see {@code resource}? Cached per loader and resource. */
    private boolean sees(ClassLoader loader, String resource) {
        Map<String, Boolean> known = loaderSeesResource.get(loader);
        if (known == null) {
            known = new ConcurrentHashMap<String, Boolean>();
            loaderSeesResource.put(loader, known);
        }
        Boolean sees = known.get(resource);
        if (sees == null) {
            sees = loader.getResource(resource) != null;
            known.put(resource, sees);
        }
        return sees;
    }

    public static final class Builder {
        private final Set<String> exact = new HashSet<String>();
        private final List<String> hintedResources = new ArrayList<String>();
        private final List<String[]> hints = new ArrayList<String[]>();
        private final List<String> hierarchyResources = new ArrayList<String>();

        private Builder() {
        }

        /** A class by its name, dotted or internal. */
        public Builder type(String className) {
            exact.add(className.replace('.', '/'));
            return this;
        }

        /** The classes extending or implementing {@code superTypeName}; with hints, only those whose simple name has one. */
        public Builder subtypesOf(String superTypeName, String[] nameHints) {
            String resource = superTypeName.replace('.', '/') + ".class";
            if (nameHints != null && nameHints.length > 0) {
                hintedResources.add(resource);
                hints.add(nameHints.clone());
            } else if (!hierarchyResources.contains(resource)) {
                hierarchyResources.add(resource);
            }
            return this;
        }

        public ProbeCandidates build() {
            return new ProbeCandidates(this);
        }
    }
}
