package io.argus.core;

import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.FieldDeclaration;
import io.argus.core.plugin.GaugeSource;
import io.argus.core.plugin.PluginContext;
import io.argus.core.plugin.PluginSettings;
import io.argus.core.plugin.Probes;
import io.argus.core.plugin.TypeProbe;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The plugins the settings leave on, started, with what they declared. They are found by the class names
 * in the build-time index premain read, when it names them: {@link ServiceLoader} would look for its
 * service file through the JDK's boot and platform loaders and every plugin jar, and load the classes of
 * disabled plugins too (about 15 ms of the start-up thread's CPU on a small service, before the start gate
 * opens). Without such an index (the {@code premain} and {@code deferred} start-ups, an index written
 * without the classes), {@link ServiceLoader} finds them.
 */
final class LoadedPlugins {

    final List<String> started = new ArrayList<String>();
    final List<TypeProbe> probes = new ArrayList<TypeProbe>();
    final List<FieldDeclaration> fields = new ArrayList<FieldDeclaration>();
    final List<GaugeSource> gauges = new ArrayList<GaugeSource>();

    private final AgentSettings settings;
    private final PluginContext context;

    private LoadedPlugins(AgentSettings settings) {
        this.settings = settings;
        final PluginSettings pluginSettings = new PluginSettings(settings);
        this.context = new PluginContext() {
            @Override
            public PluginSettings settings() {
                return pluginSettings;
            }

            @Override
            public void addGaugeSource(GaugeSource source) {
                gauges.add(source);
            }
        };
    }

    /** @param index the plugins' index, or null to look them up with {@link ServiceLoader} */
    static LoadedPlugins load(AgentSettings settings, ClassLoader loader, PluginIndex index) {
        LoadedPlugins loaded = new LoadedPlugins(settings);
        if (index != null && index.namesClasses()) {
            loaded.byName(index, loader);
        } else {
            loaded.byServiceLoader(loader);
        }
        return loaded;
    }

    /**
     * The fields the plugins the settings leave on declare, as the index lists them, in its order: what the
     * start-up declares before any plugin is loaded, so that a restart can add them to classes the class cache
     * serves early. Loading the plugins later should add none.
     */
    static List<FieldDeclaration> indexedFields(PluginIndex index, AgentSettings settings) {
        List<FieldDeclaration> declared = new ArrayList<FieldDeclaration>();
        for (PluginIndex.Plugin plugin : enabled(index, settings)) {
            for (PluginIndex.Field field : plugin.fields) {
                declared.add(new FieldDeclaration(field.owner, field.name, field.isLong));
            }
        }
        return declared;
    }

    /** The after-gate types (the JDK's executors) of the plugins the settings leave on, as the index lists them. */
    static Set<String> indexedAfterGateTypes(PluginIndex index, AgentSettings settings) {
        Set<String> types = new LinkedHashSet<String>();
        for (PluginIndex.Plugin plugin : enabled(index, settings)) {
            types.addAll(plugin.afterGateTypes);
        }
        return types;
    }

    /** The JDK's probed types (not the after-gate ones) of the plugins the settings leave on, as the index lists them. */
    static Set<String> indexedJdkTypes(PluginIndex index, AgentSettings settings) {
        Set<String> types = new LinkedHashSet<String>();
        for (PluginIndex.Plugin plugin : enabled(index, settings)) {
            for (String type : plugin.types) {
                if (FieldDeclaration.isJdkClass(type)) {
                    types.add(type);
                }
            }
        }
        return types;
    }

    /** The names of the plugins the settings leave on, as the index lists them: those the start-up will load. */
    static List<String> indexedNames(PluginIndex index, AgentSettings settings) {
        List<String> names = new ArrayList<String>();
        for (PluginIndex.Plugin plugin : enabled(index, settings)) {
            names.add(plugin.name);
        }
        return names;
    }

    /** The index's plugins that the settings leave on, in its order. */
    private static List<PluginIndex.Plugin> enabled(PluginIndex index, AgentSettings settings) {
        List<PluginIndex.Plugin> enabled = new ArrayList<PluginIndex.Plugin>();
        for (PluginIndex.Plugin plugin : index.plugins()) {
            if (settings.pluginEnabled(plugin.name)) {
                enabled.add(plugin);
            }
        }
        return enabled;
    }

    private void byName(PluginIndex index, ClassLoader loader) {
        for (PluginIndex.Plugin indexed : enabled(index, settings)) {
            ArgusPlugin plugin;
            try {
                plugin = Class.forName(indexed.className, true, loader).asSubclass(ArgusPlugin.class)
                        .getDeclaredConstructor().newInstance();
            } catch (Exception | LinkageError e) {
                // e.g. a plugin compiled for a newer Java than this JVM's
                AgentLog.error("plugin " + indexed.name + " (" + indexed.className + ") could not be loaded and is skipped", e);
                continue;
            }
            if (!plugin.name().equals(indexed.name)) {
                AgentLog.error("plugin " + indexed.className + " calls itself " + plugin.name() + ", the index "
                        + indexed.name + ": the agent's folder mixes builds; skipped");
                continue;
            }
            start(plugin);
        }
    }

    private void byServiceLoader(ClassLoader loader) {
        Iterator<ArgusPlugin> plugins = ServiceLoader.load(ArgusPlugin.class, loader).iterator();
        while (true) {
            ArgusPlugin plugin;
            try {
                if (!plugins.hasNext()) {
                    break;
                }
                plugin = plugins.next();
            } catch (ServiceConfigurationError | LinkageError e) {
                AgentLog.error("a plugin could not be loaded and is skipped", e);
                continue;
            }
            if (settings.pluginEnabled(plugin.name())) {
                start(plugin);
            }
        }
    }

    private void start(ArgusPlugin plugin) {
        String name = plugin.name();
        try {
            Probes declared = new Probes(name, settings);
            plugin.instrument(declared);
            plugin.start(context);
            probes.addAll(declared.probes());
            fields.addAll(declared.fields());
            started.add(name);
        } catch (Throwable t) {
            AgentLog.error("plugin " + name + " failed to start and is skipped", t);
        }
    }
}
