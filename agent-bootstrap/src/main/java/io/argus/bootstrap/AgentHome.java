package io.argus.bootstrap;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The agent's folder: {@code argus-agent.jar}, {@code lib/argus-bridge.jar},
 * {@code lib/argus-core.jar}, {@code plugins/*.jar} and {@code conf/agent.properties}.
 */
final class AgentHome {

    private final File directory;

    private AgentHome(File directory) {
        this.directory = directory;
    }

    static AgentHome locate(Class<?> agentClass) throws IOException {
        CodeSource source = agentClass.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IOException("cannot tell where argus-agent.jar is");
        }
        File jar;
        try {
            jar = new File(source.getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException("bad agent jar location " + source.getLocation(), e);
        }
        return new AgentHome(jar.getAbsoluteFile().getParentFile());
    }

    File directory() {
        return directory;
    }

    File bridgeJar() throws IOException {
        return existing(new File(directory, "lib/argus-bridge.jar"));
    }

    /** The core jar first, then every plugin jar in name order. */
    List<File> coreClassPath() throws IOException {
        List<File> jars = new ArrayList<File>();
        jars.add(existing(new File(directory, "lib/argus-core.jar")));
        File[] plugins = new File(directory, "plugins").listFiles();
        if (plugins != null) {
            Arrays.sort(plugins);
            for (File plugin : plugins) {
                if (plugin.getName().endsWith(".jar")) {
                    jars.add(plugin);
                }
            }
        }
        return jars;
    }

    private static File existing(File file) throws IOException {
        if (!file.isFile()) {
            throw new IOException("missing " + file);
        }
        return file;
    }
}
