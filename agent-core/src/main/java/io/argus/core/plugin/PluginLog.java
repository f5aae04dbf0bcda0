package io.argus.core.plugin;

import io.argus.core.AgentLog;

/** The agent's log, for plugins: one line per event on stderr, prefixed {@code [argus]}. */
public final class PluginLog {

    private PluginLog() {
    }

    public static boolean isDebug() {
        return AgentLog.isDebug();
    }

    public static void debug(String message) {
        AgentLog.debug(message);
    }

    public static void warn(String message) {
        AgentLog.warn(message);
    }

    public static void error(String message) {
        AgentLog.error(message);
    }
}
