package io.argus.core.instrument;

import io.argus.bootstrap.handoff.ConfigSources;

import java.io.File;
import java.util.Arrays;
import java.util.Map;

/**
 * What the class cache's entries depend on besides the class file and the probes: the agent's build (its
 * jars, plugins and index, by name, size and modification time, so a rebuilt or upgraded agent starts afresh) and the
 * JVM that runs it.
 */
public final class ClassCacheKeys {

    /** Settings that leave the probes alone, as prefixes. */
    private static final String[] PROBE_NEUTRAL = {
        "argus.collector.", "argus.exporter.", "argus.service.", "argus.log.", "argus.metrics.", "argus.startup.",
        "argus.config.file", "argus.enabled",
    };

    private ClassCacheKeys() {
    }

    /** The build and JVM, as text; {@code home} null (an agent without its folder) names the JVM only. */
    public static String build(File home) {
        StringBuilder key = new StringBuilder();
        key.append(System.getProperty("java.vm.vendor")).append(' ').append(System.getProperty("java.vm.version"));
        if (home != null) {
            describe(new File(home, "argus-agent.jar"), key);
            for (String folder : new String[] {"lib", "plugins"}) {
                File[] files = new File(home, folder).listFiles();
                if (files != null) {
                    Arrays.sort(files);
                    for (File file : files) {
                        describe(file, key);
                    }
                }
            }
        }
        return key.toString();
    }

    /**
     * The settings that can change which probes a plugin declares, as text: every agent setting but those
     * known to leave the probes alone (where spans go, the service's name, logging, start-up, metrics), which
     * often differ between two starts of one application. It names the class cache folder a restart looks in
     * before the plugins are loaded; the engine checks that guess once they are ({@link WovenClassCache#openEarly}).
     */
    public static String configuration(ConfigSources sources) {
        StringBuilder key = new StringBuilder();
        for (Map.Entry<String, String> setting : sources.agentSettings().entrySet()) {
            String name = setting.getKey().substring(setting.getKey().indexOf(':') + 1);
            if (!leavesProbesAlone(name)) {
                key.append(setting.getKey()).append('=').append(setting.getValue()).append('\n');
            }
        }
        return key.toString();
    }

    private static boolean leavesProbesAlone(String name) {
        for (String prefix : PROBE_NEUTRAL) {
            if (name.startsWith(prefix) || name.startsWith(ConfigSources.envName(prefix, false))) {
                return true;
            }
        }
        return false;
    }

    private static void describe(File file, StringBuilder key) {
        key.append('\n').append(file.getName()).append(' ').append(file.length()).append(' ').append(file.lastModified());
    }
}
