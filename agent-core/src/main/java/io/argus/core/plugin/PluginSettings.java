package io.argus.core.plugin;

import io.argus.core.config.AgentSettings;

/** The agent's settings as a plugin reads them: a value that does not parse is reported once and the default used. */
public final class PluginSettings {

    private final AgentSettings settings;

    public PluginSettings(AgentSettings settings) {
        this.settings = settings;
    }

    public String getString(String key, String defaultValue) {
        return settings.config.getString(key, defaultValue);
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        return settings.config.getBoolean(key, defaultValue);
    }

    /** Whether the plugin {@code name} is switched on ({@code argus.plugin.<name>.enabled}). */
    public boolean pluginEnabled(String name) {
        return settings.pluginEnabled(name);
    }
}
