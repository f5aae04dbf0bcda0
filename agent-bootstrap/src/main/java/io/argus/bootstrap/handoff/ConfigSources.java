package io.argus.bootstrap.handoff;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where the agent's settings come from, in order: {@code -Dargus.*} system properties, then {@code ARGUS_*}
 * environment variables, then the properties file ({@code argus.config.file}, else
 * {@code conf/agent.properties} in the agent's folder). The one reader of these sources: premain decides
 * the start-up mode with it and hands it to the core, which parses the values.
 */
public final class ConfigSources {

    private final Properties systemProperties;
    private final Map<String, String> environment;
    /** Whether any variable starts with {@code ARGUS_}: most environments have none, and then no name is spelt. */
    private final boolean environmentHasAgentSettings;
    private final Properties file;
    /** Why the file could not be read, for the core to report; null when it was read or is absent. */
    private final String fileProblem;

    public ConfigSources(Properties systemProperties, Map<String, String> environment, Properties file) {
        this(systemProperties, environment, file, null);
    }

    private ConfigSources(Properties systemProperties, Map<String, String> environment, Properties file,
                          String fileProblem) {
        this.systemProperties = systemProperties;
        this.environment = environment;
        this.environmentHasAgentSettings = hasAgentSettings(environment);
        this.file = file;
        this.fileProblem = fileProblem;
    }

    /** The JVM's own sources, with the agent folder's properties file. */
    public static ConfigSources load(File agentHome) {
        Properties system = System.getProperties();
        Map<String, String> env = System.getenv();
        String override = system.getProperty("argus.config.file", env.get("ARGUS_CONFIG_FILE"));
        File path = override != null ? new File(override) : new File(agentHome, "conf/agent.properties");
        Properties properties = new Properties();
        String problem = null;
        if (!path.isFile()) {
            if (override != null) {
                problem = "config file " + path + " does not exist; using defaults";
            }
        } else {
            try {
                InputStream in = new FileInputStream(path);
                try {
                    properties.load(in);
                } finally {
                    in.close();
                }
            } catch (IOException e) {
                problem = "cannot read config file " + path + " (" + e + "); using defaults";
            } catch (IllegalArgumentException e) {
                problem = "cannot read config file " + path + " (" + e + "); using defaults";
            }
        }
        return new ConfigSources(system, env, properties, problem);
    }

    /** The raw value, trimmed, or null when no source sets it. */
    public String raw(String key) {
        String value = systemProperties.getProperty(key);
        if (value == null) {
            value = fromEnvironment(key);
        }
        if (value == null) {
            value = file.getProperty(key);
        }
        return value == null ? null : value.trim();
    }

    /**
     * Every setting of the agent's that some source sets, by source and name, sorted: system properties and
     * the file's keys starting with {@code argus.} ({@code sys:argus.x}, {@code file:argus.x}), environment
     * variables starting with {@code ARGUS_} ({@code env:ARGUS_X}).
     */
    public SortedMap<String, String> agentSettings() {
        SortedMap<String, String> settings = new TreeMap<String, String>();
        for (String key : systemProperties.stringPropertyNames()) {
            if (key.startsWith("argus.")) {
                settings.put("sys:" + key, systemProperties.getProperty(key));
            }
        }
        for (Map.Entry<String, String> variable : environment.entrySet()) {
            if (variable.getKey().startsWith("ARGUS_")) {
                settings.put("env:" + variable.getKey(), variable.getValue());
            }
        }
        for (String key : file.stringPropertyNames()) {
            if (key.startsWith("argus.")) {
                settings.put("file:" + key, file.getProperty(key));
            }
        }
        return settings;
    }

    /** Null, or what went wrong reading the properties file. */
    public String fileProblem() {
        return fileProblem;
    }

    /**
     * {@code argus.tracing.samplingRate} is read from {@code ARGUS_TRACING_SAMPLINGRATE} or
     * {@code ARGUS_TRACING_SAMPLING_RATE}.
     */
    private String fromEnvironment(String key) {
        if (!environmentHasAgentSettings) {
            return null;
        }
        String plain = envName(key, false);
        String value = environment.get(plain);
        if (value == null) {
            String split = envName(key, true);
            if (!split.equals(plain)) {
                value = environment.get(split);
            }
        }
        return value;
    }

    private static boolean hasAgentSettings(Map<String, String> environment) {
        for (String name : environment.keySet()) {
            if (name.startsWith("ARGUS_")) {
                return true;
            }
        }
        return false;
    }

    public static String envName(String key, boolean splitCamelCase) {
        StringBuilder name = new StringBuilder(key.length() + 4);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '.' || c == '-') {
                name.append('_');
            } else {
                if (splitCamelCase && Character.isUpperCase(c) && i > 0 && Character.isLowerCase(key.charAt(i - 1))) {
                    name.append('_');
                }
                name.append(Character.toUpperCase(c));
            }
        }
        return name.toString();
    }
}
