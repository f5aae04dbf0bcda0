package io.argus.bootstrap.handoff;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PluginIndexTest {

    private static final String INDEX = "# comment\n"
            + "plugin jetty io.argus.plugin.jetty.JettyPlugin\n"
            + "type org.eclipse.jetty.server.Server\n"
            + "field org.eclipse.jetty.server.Request jetty.span\n"
            + "field org.eclipse.jetty.server.Request jetty.start long\n"
            + "plugin executors\n"
            + "type java.util.concurrent.ThreadPoolExecutor after-gate\n"
            + "field java.util.concurrent.ForkJoinTask executors.context\n"
            + "plugin jdbc\n"
            + "subtypes java.sql.Statement Statement\n"
            + "plugin method\n"
            + "types-in-setting argus.trace.methods\n";

    @Test
    void parsesEveryKindOfLine() throws IOException {
        PluginIndex index = parse(INDEX);
        assertThat(index.plugins()).extracting(p -> p.name).containsExactly("jetty", "executors", "jdbc", "method");
        PluginIndex.Plugin jetty = index.plugins().get(0);
        assertThat(jetty.types).containsExactly("org.eclipse.jetty.server.Server");
        assertThat(jetty.fields).extracting(f -> f.owner + " " + f.name + " " + f.isLong)
                .containsExactly("org.eclipse.jetty.server.Request jetty.span false",
                        "org.eclipse.jetty.server.Request jetty.start true");
        assertThat(index.plugins().get(1).afterGateTypes).containsExactly("java.util.concurrent.ThreadPoolExecutor");
        assertThat(index.plugins().get(2).subtypes.get(0).hints).containsExactly("Statement");
        assertThat(index.plugins().get(3).typeSettings).containsExactly("argus.trace.methods");
        assertThat(jetty.className).isEqualTo("io.argus.plugin.jetty.JettyPlugin");
        assertThat(index.plugins().get(1).className).as("a line without the class").isNull();
    }

    /** The core loads the plugins by the index's class names only when every plugin has one; else by ServiceLoader. */
    @Test
    void theIndexNamesThePluginsClassesOnlyWhenEveryLineHasOne() throws IOException {
        assertThat(parse(INDEX).namesClasses()).isFalse();
        assertThat(parse("plugin a io.x.A\ntype x.Y\nplugin b io.x.B\n").namesClasses()).isTrue();
        assertThat(parse("# nothing\n").namesClasses()).as("an empty index").isFalse();
        assertThatThrownBy(() -> parse("plugin a io.x.A extra\n")).hasMessageContaining("test:1");
    }

    @Test
    void candidatesAreWhatMustWaitForTheEngine() throws IOException {
        Properties system = new Properties();
        system.setProperty("argus.trace.methods", "com.example.Orders#place,com.example.Stock#*");
        ProbeCandidates candidates = parse(INDEX).candidates(new ConfigSources(system, new HashMap<>(), new Properties()));
        ClassLoader app = new URLClassLoader(new URL[0], getClass().getClassLoader());
        assertThat(candidates.isCandidate(app, "org/eclipse/jetty/server/Server")).isTrue();
        assertThat(candidates.isCandidate(app, "org/eclipse/jetty/server/Request")).as("a field owner").isTrue();
        assertThat(candidates.isCandidate(app, "java/util/concurrent/ThreadPoolExecutor")).as("after the gate: never held").isFalse();
        assertThat(candidates.isCandidate(null, "java/util/concurrent/ForkJoinTask")).as("a JDK owner").isFalse();
        assertThat(candidates.isCandidate(app, "org/h2/jdbc/JdbcPreparedStatement")).as("a hinted subtype").isTrue();
        assertThat(candidates.isCandidate(app, "org/h2/jdbc/JdbcResultSet")).isFalse();
        assertThat(candidates.isCandidate(app, "java/sql/SomeStatement")).as("the JDK's own").isFalse();
        assertThat(candidates.isCandidate(app, "com/example/Orders")).as("named in a setting").isTrue();
        assertThat(candidates.isCandidate(app, "com/example/Stock")).isTrue();
        assertThat(candidates.isCandidate(app, "com/example/Other")).isFalse();
    }

    @Test
    void aSwitchedOffPluginHoldsNothing() throws IOException {
        Properties system = new Properties();
        system.setProperty("argus.plugin.jetty.enabled", "off");
        ProbeCandidates candidates = parse(INDEX).candidates(new ConfigSources(system, new HashMap<>(), new Properties()));
        assertThat(candidates.isExact("org/eclipse/jetty/server/Server")).isFalse();
        assertThat(candidates.isExact("org/eclipse/jetty/server/Request")).isFalse();
    }

    @Test
    void aMalformedLineNamesItsLine() {
        assertThatThrownBy(() -> parse("plugin a\ntype\n")).hasMessageContaining("test:2: 'type'");
        assertThatThrownBy(() -> parse("type x\n")).hasMessageContaining("test:1").hasMessageContaining("'plugin <name>'");
    }

    @Test
    void wordsAreSplitAtRunsOfBlanks() {
        assertThat(PluginIndex.words("subtypes  java.sql.Statement\tStatement Call")).containsExactly("subtypes",
                "java.sql.Statement", "Statement", "Call");
        assertThat(PluginIndex.words("plugin x")).containsExactly("plugin", "x");
    }

    @Test
    void typesInASettingAreTheClassesBeforeEachHash() {
        assertThat(PluginIndex.typesIn(" a.B#c , d.E#* ,, f.G")).containsExactly("a.B", "d.E", "f.G");
        assertThat(PluginIndex.typesIn(null)).isEmpty();
    }

    private static PluginIndex parse(String text) throws IOException {
        return PluginIndex.parse("test", new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }
}
