package io.argus.distribution;

import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.ArgusPlugin;
import io.argus.core.plugin.FieldDeclaration;
import io.argus.core.plugin.Probes;
import io.argus.core.state.FieldManifest;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each plugin's {@code META-INF/argus/fields} lists exactly the fields its {@code instrument} declares
 * (default settings, in the same order): the agent reads the manifest before it loads the plugin, so
 * that owner classes get their fields as they load.
 */
class FieldManifestIT {

    @Test
    void everyPluginsManifestListsTheFieldsItDeclares() throws Exception {
        AgentSettings defaults = new AgentSettings(new AgentConfig(new Properties(), new HashMap<>(), new Properties()));
        List<String> checked = new ArrayList<>();
        List<FieldDeclaration> everyPlugin = new ArrayList<>();
        for (ArgusPlugin plugin : ServiceLoader.load(ArgusPlugin.class)) {
            Probes probes = new Probes(plugin.name(), defaults);
            plugin.instrument(probes);
            URL jar = plugin.getClass().getProtectionDomain().getCodeSource().getLocation();
            URL manifest = new URL("jar:" + jar + "!/" + FieldManifest.RESOURCE);
            List<FieldDeclaration> listed;
            try {
                listed = FieldManifest.read(manifest, name -> true);
            } catch (java.io.IOException absent) {
                listed = List.of();
            }
            assertThat(listed).as("%s: %s against its instrument()", plugin.name(), manifest)
                    .containsExactlyElementsOf(probes.fields());
            if (!listed.isEmpty()) {
                assertThat(FieldManifest.read(manifest, name -> !name.equals(plugin.name())))
                        .as("%s: names itself in its manifest", plugin.name()).isEmpty();
            }
            checked.add(plugin.name());
            everyPlugin.addAll(listed);
        }
        assertThat(checked).contains("jetty", "servlet", "tomcat", "executors", "jdk-http-client");
        File joined = new File(System.getProperty("argus.agent.dir"), FieldManifest.JOINED);
        assertThat(FieldManifest.read(joined.toURI().toURL(), name -> true)).as("the distribution's " + joined)
                .containsExactlyInAnyOrderElementsOf(everyPlugin);
    }
}
