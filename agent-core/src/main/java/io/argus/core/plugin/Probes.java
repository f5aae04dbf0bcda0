package io.argus.core.plugin;

import io.argus.core.config.AgentSettings;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collects the type probes that plugins declare. */
public final class Probes {

    private final String pluginName;
    private final AgentSettings settings;
    private final List<TypeProbe> probes = new ArrayList<TypeProbe>();

    public Probes(String pluginName, AgentSettings settings) {
        this.pluginName = pluginName;
        this.settings = settings;
    }

    /** The agent's settings, for plugins whose targets are configured (e.g. method tracing). */
    public AgentSettings settings() {
        return settings;
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

    /**
     * Probes the classes that extend or implement {@code superTypeName} and whose simple name
     * contains one of {@code simpleNameHints} (e.g. {@code "Statement"}): the cheap way to probe
     * an interface of the JDK, which every class loader can see. A class whose name has none of
     * the hints is dismissed by a string search, before any hierarchy is resolved; the library
     * part of the ignore list does not apply, only the JDK's and the agent's own packages.
     */
    public TypeProbe subtypesOf(String superTypeName, String... simpleNameHints) {
        if (simpleNameHints == null || simpleNameHints.length == 0) {
            return subtypesOf(superTypeName);
        }
        TypeProbe probe = new TypeProbe(pluginName, superTypeName, true, simpleNameHints.clone());
        probes.add(probe);
        return probe;
    }

    public List<TypeProbe> probes() {
        return Collections.unmodifiableList(probes);
    }
}
