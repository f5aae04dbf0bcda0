package io.argus.bootstrap;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Whether {@code premain} does the whole start-up before it returns ({@code
 * argus.startup.waitForInstrumentation}) or hands it to a thread at once. Read here, before the agent's
 * class loader exists, from the same sources in the same order as the core's configuration: the system
 * property, the environment ({@code ARGUS_STARTUP_WAITFORINSTRUMENTATION} or
 * {@code ARGUS_STARTUP_WAIT_FOR_INSTRUMENTATION}), then the config file ({@code argus.config.file} or
 * {@code conf/agent.properties}). Only {@code true}, {@code yes} and {@code on} wait; the core reports a
 * value it cannot read.
 */
final class StartupMode {

    static final String KEY = "argus.startup.waitForInstrumentation";

    private StartupMode() {
    }

    static boolean waitForInstrumentation(File agentHome) {
        String value = System.getProperty(KEY);
        if (value == null) {
            value = System.getenv("ARGUS_STARTUP_WAITFORINSTRUMENTATION");
        }
        if (value == null) {
            value = System.getenv("ARGUS_STARTUP_WAIT_FOR_INSTRUMENTATION");
        }
        if (value == null) {
            value = fromConfigFile(agentHome);
        }
        if (value == null) {
            return false;
        }
        String v = value.trim();
        return v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes") || v.equalsIgnoreCase("on");
    }

    private static String fromConfigFile(File agentHome) {
        String override = System.getProperty("argus.config.file", System.getenv("ARGUS_CONFIG_FILE"));
        File file = override != null ? new File(override) : new File(agentHome, "conf/agent.properties");
        if (!file.isFile()) {
            return null;
        }
        Properties properties = new Properties();
        try {
            InputStream in = new FileInputStream(file);
            try {
                properties.load(in);
            } finally {
                in.close();
            }
        } catch (IOException e) {
            return null; // the core reports it
        }
        return properties.getProperty(KEY);
    }
}
