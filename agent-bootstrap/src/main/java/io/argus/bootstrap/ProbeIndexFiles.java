package io.argus.bootstrap;

import io.argus.bootstrap.handoff.ConfigSources;
import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.bootstrap.handoff.ProbeCandidates;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * Reads the plugins' build-time index in premain: the distribution's joined {@code lib/probes}, else (an
 * agent folder assembled without it, as in a plugin's own tests) each plugin jar's
 * {@code META-INF/argus/probes}.
 */
final class ProbeIndexFiles {

    private ProbeIndexFiles() {
    }

    /** The index and its candidates, or null and why not. */
    static Result read(AgentHome home, ConfigSources config) {
        File joined = new File(home.directory(), PluginIndex.JOINED);
        try {
            PluginIndex index;
            if (joined.isFile()) {
                InputStream in = new FileInputStream(joined);
                try {
                    index = PluginIndex.parse(joined.getPath(), in);
                } finally {
                    in.close();
                }
            } else {
                index = fromPluginJars(home.directory());
            }
            return new Result(index, index.candidates(config), null);
        } catch (IOException e) {
            return new Result(null, null, "cannot read the plugins' index (" + e.getMessage() + ")");
        }
    }

    private static PluginIndex fromPluginJars(File home) throws IOException {
        File[] jars = new File(home, "plugins").listFiles();
        List<PluginIndex.Plugin> plugins = new ArrayList<PluginIndex.Plugin>();
        if (jars != null) {
            Arrays.sort(jars);
            for (File jar : jars) {
                if (!jar.getName().endsWith(".jar")) {
                    continue;
                }
                JarFile file = new JarFile(jar);
                try {
                    ZipEntry entry = file.getEntry(PluginIndex.RESOURCE);
                    if (entry == null) {
                        throw new IOException(jar + " has no " + PluginIndex.RESOURCE);
                    }
                    InputStream in = file.getInputStream(entry);
                    try {
                        plugins.addAll(PluginIndex.parse(jar + "!/" + PluginIndex.RESOURCE, in).plugins());
                    } finally {
                        in.close();
                    }
                } finally {
                    file.close();
                }
            }
        }
        return PluginIndex.of(plugins);
    }

    static final class Result {
        final PluginIndex index;
        final ProbeCandidates candidates;
        final String problem;

        Result(PluginIndex index, ProbeCandidates candidates, String problem) {
            this.index = index;
            this.candidates = candidates;
            this.problem = problem;
        }
    }
}
