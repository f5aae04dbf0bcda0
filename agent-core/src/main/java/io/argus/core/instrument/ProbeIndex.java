package io.argus.core.instrument;

import io.argus.bootstrap.handoff.IgnoredTypes;
import io.argus.bootstrap.handoff.ProbeCandidates;
import io.argus.core.plugin.TypeProbe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Answers "could any probe apply to this class?" from its name and class loader alone, so that
 * almost every class the application loads is dismissed with a hash look-up and a few prefix
 * checks; then, for the few let through, which probes do apply, from class file headers or, for a
 * loaded class, by reflection. ByteBuddy parses only the classes a probe applies to.
 */
final class ProbeIndex {

    /** Exact-name probes by the internal name of their class. */
    private final Map<String, List<TypeProbe>> exactProbes = new HashMap<String, List<TypeProbe>>();
    /** Every hierarchy probe, and its super type's internal name, in step. */
    private final List<TypeProbe> hierarchyProbes = new ArrayList<TypeProbe>();
    private final List<String> hierarchyTypes = new ArrayList<String>();
    private final List<String[]> hierarchyHints = new ArrayList<String[]>();
    private final SuperTypeWalk superTypes = new SuperTypeWalk();
    /** The name-only test, shared with premain's start gate. */
    private final ProbeCandidates candidates;

    ProbeIndex(List<TypeProbe> probes) {
        ProbeCandidates.Builder names = ProbeCandidates.builder();
        for (TypeProbe probe : probes) {
            String internal = probe.typeName().replace('.', '/');
            if (probe.isHierarchy()) {
                hierarchyProbes.add(probe);
                hierarchyTypes.add(internal);
                hierarchyHints.add(probe.nameHints());
                names.subtypesOf(probe.typeName(), probe.nameHints());
            } else {
                List<TypeProbe> same = exactProbes.get(internal);
                if (same == null) {
                    same = new ArrayList<TypeProbe>(1);
                    exactProbes.put(internal, same);
                }
                same.add(probe);
                names.type(probe.typeName());
            }
        }
        candidates = names.build();
    }

    boolean isCandidate(ClassLoader loader, String internalName) {
        return candidates.isCandidate(loader, internalName);
    }

    /**
     * The probes that apply to a class being defined: those naming it, and the hierarchy probes whose
     * super type its class file header, and those of its super types, lead to. Called only for classes
     * {@link #isCandidate} let through; ByteBuddy has parsed nothing yet.
     */
    List<TypeProbe> probesFor(ClassLoader loader, String internalName, byte[] classFile) {
        List<TypeProbe> exact = exactProbes.get(internalName);
        List<TypeProbe> found = exact == null ? Collections.<TypeProbe>emptyList() : exact;
        if (loader == null || hierarchyProbes.isEmpty()) {
            return found;
        }
        for (int i = 0; i < hierarchyProbes.size(); i++) {
            String[] hints = hierarchyHints.get(i);
            // the ignore lists were applied by isCandidate
            if ((hints == null ? !IgnoredTypes.isIgnored(internalName) : TypeProbe.simpleNameContainsAny(internalName, hints))
                    && superTypes.isConcreteSubtype(loader, internalName, classFile, hierarchyTypes.get(i))) {
                found = with(found, hierarchyProbes.get(i));
            }
        }
        return found;
    }

    /**
     * For a class that is already loaded, the probes that apply to it: those naming it, and for a class
     * (not an interface) the hierarchy probes whose super type its hierarchy, walked by reflection,
     * holds. Loads nothing, so the classes that only {@link #isCandidate} let through (a web server's
     * {@code HttpConnection} for the JDBC probe's "Connection" hint) are not retransformed for nothing.
     */
    List<TypeProbe> probesFor(Class<?> type) {
        List<TypeProbe> exact = exactProbes.get(type.getName().replace('.', '/'));
        List<TypeProbe> found = exact == null ? Collections.<TypeProbe>emptyList() : exact;
        if (type.isInterface()) {
            return found;
        }
        for (int i = 0; i < hierarchyProbes.size(); i++) {
            String[] hints = hierarchyHints.get(i);
            TypeProbe probe = hierarchyProbes.get(i);
            if ((hints == null || TypeProbe.simpleNameContainsAny(type.getName(), hints))
                    && hasSuperType(type, probe.typeName())) {
                found = with(found, probe);
            }
        }
        return found;
    }

    boolean matchesLoaded(Class<?> type) {
        return !probesFor(type).isEmpty();
    }

    private static List<TypeProbe> with(List<TypeProbe> found, TypeProbe probe) {
        List<TypeProbe> more = new ArrayList<TypeProbe>(found.size() + 1);
        more.addAll(found);
        more.add(probe);
        return more;
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
}
