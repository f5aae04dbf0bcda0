package io.argus.core.instrument;

import java.io.File;
import java.util.Arrays;

/**
 * What the class cache's entries depend on besides the class file and the probes: the agent's build (its
 * jars, plugins and index, by name, size and modification time, so a rebuilt or upgraded agent starts afresh) and the
 * JVM that runs it.
 */
public final class ClassCacheKeys {

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

    private static void describe(File file, StringBuilder key) {
        key.append('\n').append(file.getName()).append(' ').append(file.length()).append(' ').append(file.lastModified());
    }
}
