package io.argus.core.plugin;

/** What a plugin may use at start-up. */
public interface PluginContext {

    PluginSettings settings();

    /** Reports gauges once per metrics interval, sampled on the exporter thread. */
    void addGaugeSource(GaugeSource source);
}
