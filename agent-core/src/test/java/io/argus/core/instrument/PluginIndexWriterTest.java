package io.argus.core.instrument;

import io.argus.bootstrap.handoff.PluginIndex;
import io.argus.plugin.fixture.FixtureAdvice;
import io.argus.plugin.fixture.IndexedPlugin;
import io.argus.plugin.fixture.UsesTheCore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PluginIndexWriterTest {

    private static File testClasses() throws URISyntaxException {
        return new File(IndexedPlugin.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void writesWhatThePluginDeclares() throws Exception {
        List<String> problems = new ArrayList<>();
        String index = PluginIndexWriter.write(testClasses(), List.of(new IndexedPlugin(FixtureAdvice.class.getName())),
                problems);
        assertThat(problems).isEmpty();
        assertThat(index.lines().filter(l -> !l.startsWith("#"))).containsExactly(
                "plugin indexed io.argus.plugin.fixture.IndexedPlugin",
                "type com.example.Server",
                "subtypes java.sql.Statement Statement",
                "type java.lang.Thread after-gate",
                "field com.example.Request indexed.span",
                "field com.example.Request indexed.start long",
                "types-in-setting argus.indexed.targets");
        // and premain reads back what the build wrote
        PluginIndex parsed = PluginIndex.parse("written", new ByteArrayInputStream(index.getBytes(StandardCharsets.UTF_8)));
        assertThat(parsed.plugins().get(0).fields).hasSize(2);
    }

    @Test
    void aMisspeltAdviceClassFailsTheBuild() throws Exception {
        List<String> problems = new ArrayList<>();
        PluginIndexWriter.write(testClasses(), List.of(new IndexedPlugin("io.argus.plugin.fixture.FixtureAdvise")),
                problems);
        assertThat(problems).containsExactly("indexed: advice class io.argus.plugin.fixture.FixtureAdvise"
                + " (probe of com.example.Server) is not in the plugin");
    }

    @Test
    void aPluginClassThatReachesPastThePluginApiIsNamed(@TempDir Path classes) throws Exception {
        Path fixture = classes.resolve("io/argus/plugin/fixture");
        Files.createDirectories(fixture);
        for (Class<?> c : List.of(UsesTheCore.class, IndexedPlugin.class, FixtureAdvice.class)) {
            Files.copy(testClasses().toPath().resolve(c.getName().replace('.', '/') + ".class"),
                    fixture.resolve(c.getSimpleName() + ".class"));
        }
        assertThat(PluginIndexWriter.outsideThePluginApi(classes.toFile())).containsExactly(
                "io/argus/plugin/fixture/UsesTheCore.class uses io.argus.core.AgentLog, which is not part of the"
                        + " plugin API (io.argus.core.plugin.*)");
    }
}
