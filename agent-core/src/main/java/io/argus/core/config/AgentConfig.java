package io.argus.core.config;

import io.argus.bootstrap.handoff.ConfigSources;
import io.argus.core.AgentLog;

import java.io.File;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Agent settings, typed. Each key is looked up in the {@link ConfigSources} premain read ({@code -Dargus.*}
 * system properties, then {@code ARGUS_*} environment variables, then {@code conf/agent.properties}). A
 * value that does not parse is reported once, with the key and what was expected, and the default is used.
 */
public final class AgentConfig {

    private final ConfigSources sources;

    public AgentConfig(ConfigSources sources) {
        this.sources = sources;
    }

    public AgentConfig(Properties systemProperties, Map<String, String> environment, Properties file) {
        this(new ConfigSources(systemProperties, environment, file));
    }

    /** The agent's real sources; {@code argus.config.file} may point at another properties file. */
    public static AgentConfig load(File agentHome) {
        ConfigSources sources = ConfigSources.load(agentHome);
        if (sources.fileProblem() != null) {
            AgentLog.error(sources.fileProblem());
        }
        return new AgentConfig(sources);
    }

    /** The raw value, or null when no source sets it. */
    public String raw(String key) {
        return sources.raw(key);
    }

    public String getString(String key, String defaultValue) {
        String value = raw(key);
        return value == null || value.isEmpty() ? defaultValue : value;
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        String value = raw(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("yes") || lower.equals("on")) {
            return true;
        }
        if (lower.equals("false") || lower.equals("no") || lower.equals("off")) {
            return false;
        }
        return invalid(key, value, "true or false", defaultValue);
    }

    public int getInt(String key, int defaultValue, int min, int max) {
        String value = raw(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        return invalid(key, value, "a whole number from " + min + " to " + max, defaultValue);
    }

    public double getDouble(String key, double defaultValue, double min, double max) {
        String value = raw(key);
        if (value == null || value.isEmpty()) {
            return defaultValue;
        }
        try {
            double parsed = Double.parseDouble(value.endsWith("%") ? value.substring(0, value.length() - 1) : value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        return invalid(key, value, "a number from " + format(min) + " to " + format(max), defaultValue);
    }

    /** A duration such as {@code 10s}, {@code 250ms}, {@code 2m}, or a plain number of milliseconds. */
    public long getDurationMillis(String key, long defaultMillis, long minMillis, long maxMillis) {
        String value = raw(key);
        if (value == null || value.isEmpty()) {
            return defaultMillis;
        }
        long parsed = parseDurationMillis(value);
        if (parsed >= minMillis && parsed <= maxMillis) {
            return parsed;
        }
        return invalid(key, value, "a duration from " + minMillis + "ms to " + maxMillis + "ms (e.g. 10s, 500ms)",
                defaultMillis);
    }

    static long parseDurationMillis(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("ms")) {
            v = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            v = v.substring(0, v.length() - 1);
            unit = 1000;
        } else if (v.endsWith("m")) {
            v = v.substring(0, v.length() - 1);
            unit = 60_000;
        }
        try {
            return Long.parseLong(v.trim()) * unit;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static <T> T invalid(String key, String value, String expected, T defaultValue) {
        AgentLog.error("invalid value '" + value + "' for " + key + ": expected " + expected
                + "; using the default " + defaultValue);
        return defaultValue;
    }

    private static String format(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
