package io.argus.core;

import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.Probes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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

    @Test
    void withoutClassNamesServiceLoaderFindsThem() throws IOException {
        // this module declares no ArgusPlugin service: nothing found, and nothing fails
        LoadedPlugins loaded = LoadedPlugins.load(settings(new Properties()), getClass().getClassLoader(),
                index("plugin first\n"));
        assertThat(loaded.started).isEmpty();
    }

    private static AgentSettings settings(Properties system) {
        return new AgentSettings(new AgentConfig(system, Collections.<String, String>emptyMap(), new Properties()));
    }

    private static PluginIndex index(String text) throws IOException {
        return PluginIndex.parse("test", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    public static final class First implements ArgusPlugin {
        @Override
        public String name() {
            return "first";
        }

        @Override
        public void instrument(Probes probes) {
            probes.type("com.example.First").advise(named("run"), "com.example.Advice");
        }
    }

    public static final class Second implements ArgusPlugin {
        @Override
        public String name() {
            return "second";
        }

        @Override
        public void instrument(Probes probes) {
            probes.type("com.example.Second").advise(named("run"), "com.example.Advice");
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
