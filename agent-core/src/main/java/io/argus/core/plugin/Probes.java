package io.argus.core.plugin;

import io.argus.core.config.AgentSettings;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collects the type probes that plugins declare. */
public final class Probes {

    private final String pluginName;
    private final PluginSettings settings;
    private final List<TypeProbe> probes = new ArrayList<TypeProbe>();
    private final List<FieldDeclaration> fields = new ArrayList<FieldDeclaration>();
    private final List<String> typeSettings = new ArrayList<String>();

    public Probes(String pluginName, AgentSettings settings) {
        this.pluginName = pluginName;
        this.settings = new PluginSettings(settings);
    }

    /** The agent's settings, for plugins whose targets are configured (e.g. method tracing). */
    public PluginSettings settings() {
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

    /**
     * Gives the objects of class {@code ownerClassName} a field that advice reaches as
     * {@code ObjectField.named(fieldName)} (from a constant of a helper class). If the class loads
     * after the agent is ready it gets a real field; otherwise, and for subclasses that are not
     * declared themselves, the value lives in a weak identity map. Name the concrete classes whose
     * objects carry the state, not interfaces. Field names are global: prefix them with the plugin's.
     */
    public Probes field(String ownerClassName, String fieldName) {
        fields.add(new FieldDeclaration(ownerClassName, fieldName, false));
        return this;
    }

    /** As {@link #field}, for a {@code long} reached as {@code LongField.named(fieldName)}: never boxed on a real field. */
    public Probes longField(String ownerClassName, String fieldName) {
        fields.add(new FieldDeclaration(ownerClassName, fieldName, true));
        return this;
    }

    /**
     * Says that this plugin probes the classes a setting names ({@code Class#method} entries, comma-separated),
     * so that the start gate holds them too: the plugin's build-time index cannot list them.
     */
    public Probes typesNamedIn(String settingKey) {
        if (!typeSettings.contains(settingKey)) {
            typeSettings.add(settingKey);
        }
        return this;
    }

    public List<String> typeSettings() {
        return Collections.unmodifiableList(typeSettings);
    }

    public List<FieldDeclaration> fields() {
        return Collections.unmodifiableList(fields);
    }

    public List<TypeProbe> probes() {
        return Collections.unmodifiableList(probes);
    }
}
