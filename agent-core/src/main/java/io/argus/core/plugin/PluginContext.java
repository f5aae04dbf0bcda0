package io.argus.core.plugin;

import io.argus.core.config.AgentSettings;
import io.argus.core.metrics.GaugeSource;

/** What a plugin may use at start-up. */
public interface PluginContext {

    AgentSettings settings();

    /** Reports gauges once per metrics interval, sampled on the exporter thread. */
    void addGaugeSource(GaugeSource source);
}
