package io.argus.core.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collects the type probes that plugins declare. */
public final class Probes {

    private final String pluginName;
    private final List<TypeProbe> probes = new ArrayList<TypeProbe>();

    public Probes(String pluginName) {
        this.pluginName = pluginName;
    }

    /** Probes one class, matched by its exact name: the cheapest match there is. */
    public TypeProbe type(String className) {
        TypeProbe probe = new TypeProbe(pluginName, className, false);
        probes.add(probe);
        return probe;
    }

    /**
     * Probes every class that extends or implements {@code superTypeName}. The hierarchy is only
     * resolved for classes of class loaders that can see {@code superTypeName}.
     */
    public TypeProbe subtypesOf(String superTypeName) {
        TypeProbe probe = new TypeProbe(pluginName, superTypeName, true);
        probes.add(probe);
        return probe;
    }

    public List<TypeProbe> probes() {
        return Collections.unmodifiableList(probes);
    }
}
