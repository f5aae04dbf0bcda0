package io.argus.core;

import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static org.assertj.core.api.Assertions.assertThat;

class LoadedPluginsTest {

    private static final String PREFIX = LoadedPluginsTest.class.getName() + "$";

    @Test
    void theIndexedPluginsAreLoadedByTheirClassNames() throws IOException {
        LoadedPlugins loaded = LoadedPlugins.load(settings(new Properties()), getClass().getClassLoader(),
                index("plugin first " + PREFIX + "First\nplugin second " + PREFIX + "Second\n"));
        assertThat(loaded.started).containsExactly("first", "second");
        assertThat(loaded.probes).extracting(p -> p.typeName()).containsExactly("com.example.First", "com.example.Second");
    }

    @Test
    void aSwitchedOffPluginIsNotEvenLoaded() throws IOException {
        Properties system = new Properties();
        system.setProperty("argus.plugin.counted.enabled", "false");
        int before = Counted.made.get();
        LoadedPlugins loaded = LoadedPlugins.load(settings(system), getClass().getClassLoader(),
                index("plugin counted " + PREFIX + "Counted\nplugin first " + PREFIX + "First\n"));
        assertThat(loaded.started).containsExactly("first");
        assertThat(Counted.made.get()).isEqualTo(before);
    }

    @Test
    void aPluginThatCannotBeLoadedOrIsMisnamedOrFailsIsSkippedAndTheOthersStart() throws IOException {
        LoadedPlugins loaded = LoadedPlugins.load(settings(new Properties()), getClass().getClassLoader(),
                index("plugin gone io.argus.no.SuchPlugin\n"
                        + "plugin notfirst " + PREFIX + "First\n"
                        + "plugin failing " + PREFIX + "Failing\n"
                        + "plugin second " + PREFIX + "Second\n"));
        assertThat(loaded.started).containsExactly("second");
    }

    /** An index without class names (or none): the plugins a loader's service files name, the switched-off left out. */
    @Test
    void withoutClassNamesServiceLoaderFindsThem(@TempDir Path folder) throws IOException {
        Path services = Files.createDirectories(folder.resolve("META-INF/services"));
        Files.write(services.resolve(ArgusPlugin.class.getName()),
                (PREFIX + "First\n" + PREFIX + "Second\n").getBytes(StandardCharsets.UTF_8));
        Properties system = new Properties();
        system.setProperty("argus.plugin.second.enabled", "false");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {folder.toUri().toURL()}, getClass().getClassLoader())) {
            assertThat(LoadedPlugins.load(settings(system), loader, index("plugin first\n")).started).containsExactly("first");
            assertThat(LoadedPlugins.load(settings(system), loader, null).started).containsExactly("first");
        }
    }

    private static AgentSettings settings(Properties system) {
        return new AgentSettings(new AgentConfig(system, Collections.<String, String>emptyMap(), new Properties()));
    }

    private static PluginIndex index(String text) throws IOException {
        return PluginIndex.parse("test", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** A plugin that names itself and probes one type. */
    abstract static class NamedPlugin implements ArgusPlugin {
        private final String name;

        NamedPlugin(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void instrument(Probes probes) {
            probes.type("com.example." + Character.toUpperCase(name.charAt(0)) + name.substring(1))
                    .advise(named("run"), "com.example.Advice");
        }
    }

    public static final class First extends NamedPlugin {
        public First() {
            super("first");
        }
    }

    public static final class Second extends NamedPlugin {
        public Second() {
            super("second");
        }
    }

    public static final class Counted implements ArgusPlugin {
        static final AtomicInteger made = new AtomicInteger();

        public Counted() {
            made.incrementAndGet();
        }

        @Override
        public String name() {
            return "counted";
        }

        @Override
        public void instrument(Probes probes) {
        }
    }

    public static final class Failing implements ArgusPlugin {
        @Override
        public String name() {
            return "failing";
        }

        @Override
        public void instrument(Probes probes) {
            throw new IllegalStateException("broken plugin");
        }
    }
}
