package io.argus.distribution;

import io.argus.bootstrap.handoff.ConfigSources;
import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.bootstrap.handoff.ProbeCandidates;
import io.argus.core.plugin.ArgusPlugin;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The distribution's {@code agent/lib/probes} joins every plugin jar's build-time index, so that premain
 * knows each plugin's probed classes and field owners without opening a jar; a plugin switched off holds
 * nothing.
 */
class PluginIndexIT {

    private static final File AGENT = new File(System.getProperty("argus.agent.dir"));

    @Test
    void theJoinedIndexHasEveryShippedPluginOnce() throws Exception {
        List<String> shipped = new ArrayList<>();
        for (File jar : new File(AGENT, "plugins").listFiles((dir, name) -> name.endsWith(".jar"))) {
            try (JarFile file = new JarFile(jar); InputStream in = file.getInputStream(file.getEntry(PluginIndex.RESOURCE))) {
                PluginIndex.parse(jar.getName(), in).plugins().forEach(plugin -> shipped.add(plugin.name));
            }
        }
        List<String> declared = new ArrayList<>();
        ServiceLoader.load(ArgusPlugin.class).forEach(plugin -> declared.add(plugin.name()));
        assertThat(shipped).as("plugins shipped with an index").containsExactlyInAnyOrderElementsOf(declared);
        assertThat(joined().plugins()).extracting(plugin -> plugin.name).containsExactlyInAnyOrderElementsOf(shipped);
    }

    @Test
    void theGateHoldsTheServersAndOwnersOfEnabledPluginsOnly() throws Exception {
        PluginIndex index = joined();
        ProbeCandidates all = index.candidates(sources(new Properties()));
        assertThat(all.isExact("org/eclipse/jetty/server/Server")).isTrue();
        assertThat(all.isExact("org/eclipse/jetty/server/internal/HttpChannelState$ChannelRequest")).isTrue();
        assertThat(all.isExact("org/apache/catalina/connector/CoyoteAdapter")).isTrue();
        // probed only once tracing begins, and a JDK owner: neither is held
        assertThat(all.isExact("java/util/concurrent/ThreadPoolExecutor")).isFalse();
        assertThat(all.isExact("java/util/concurrent/ForkJoinTask")).isFalse();
        assertThat(all.isCandidate(getClass().getClassLoader(), "org/h2/jdbc/JdbcPreparedStatement")).isTrue();

        Properties jettyOff = new Properties();
        jettyOff.setProperty("argus.plugin.jetty.enabled", "false");
        assertThat(index.candidates(sources(jettyOff)).isExact("org/eclipse/jetty/server/Server")).isFalse();

        Properties methods = new Properties();
        methods.setProperty("argus.trace.methods", "com.example.Orders#place, com.example.Stock#*");
        ProbeCandidates configured = index.candidates(sources(methods));
        assertThat(configured.isExact("com/example/Orders")).isTrue();
        assertThat(configured.isExact("com/example/Stock")).isTrue();
    }

    private static PluginIndex joined() throws Exception {
        File file = new File(AGENT, PluginIndex.JOINED);
        try (InputStream in = new FileInputStream(file)) {
            return PluginIndex.parse(file.getPath(), in);
        }
    }

    private static ConfigSources sources(Properties system) {
        return new ConfigSources(system, new HashMap<>(), new Properties());
    }
}
