package io.argus.plugin.jvm;

import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.PluginContext;

/** JVM gauges: memory, GC, threads, CPU, classes, uptime. Instruments nothing. */
public final class JvmPlugin implements ArgusPlugin {

    @Override
    public String name() {
        return "jvm";
    }

    @Override
    public void start(PluginContext context) {
        context.addGaugeSource(new JvmGauges());
    }
}
