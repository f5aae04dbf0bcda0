package io.argus.core.instrument;

import io.argus.core.config.AgentConfig;
import io.argus.core.config.AgentSettings;
import io.argus.core.plugin.Probes;
import io.argus.core.plugin.TypeProbe;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import java.util.HashMap;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeIndexTest {

    private static ProbeIndex index() {
        Probes probes = new Probes("test", new AgentSettings(new AgentConfig(new Properties(), new HashMap<>(),
                new Properties())));
        probes.type("java.util.concurrent.FutureTask");
        probes.subtypesOf("java.sql.Statement", "Statement");
        return new ProbeIndex(probes.probes());
    }

    @Test
    void nameHintsDecideBeforeAnyHierarchyWork() {
        ProbeIndex index = index();
        ClassLoader app = getClass().getClassLoader();
        assertThat(index.isCandidate(null, "java/util/concurrent/FutureTask")).as("exact names, any loader").isTrue();
        assertThat(index.isCandidate(app, "org/h2/jdbc/JdbcPreparedStatement")).isTrue();
        assertThat(index.isCandidate(app, "com/example/Outer$InnerStatement")).isTrue();
        assertThat(index.isCandidate(app, "org/apache/derby/impl/jdbc/EmbedStatement"))
                .as("the library ignore list does not apply to name-hinted probes").isTrue();
        assertThat(index.isCandidate(app, "org/h2/jdbc/JdbcResultSet")).isFalse();
        assertThat(index.isCandidate(app, "org/Statement/Helper")).as("only the simple name counts").isFalse();
        assertThat(index.isCandidate(app, "java/sql/SomeStatement")).as("the JDK").isFalse();
        assertThat(index.isCandidate(app, "io/argus/core/AStatement")).as("the agent").isFalse();
        assertThat(index.isCandidate(app, "com/example/Statement$$Lambda$1")).as("generated").isFalse();
        assertThat(index.isCandidate(null, "org/h2/jdbc/JdbcStatement")).as("the boot loader").isFalse();
    }

    @Test
    void aLoadedClassMatchesOnlyByExactNameOrARealProbedSuperType() {
        ProbeIndex index = index();
        assertThat(index.matchesLoaded(java.util.concurrent.FutureTask.class)).isTrue();
        assertThat(index.matchesLoaded(FakeStatement.class)).as("implements java.sql.Statement").isTrue();
        assertThat(index.matchesLoaded(SubStatement.class)).as("through its super class").isTrue();
        assertThat(index.matchesLoaded(NotAStatement.class)).as("the hint alone is not enough").isFalse();
        assertThat(index.matchesLoaded(java.sql.PreparedStatement.class)).as("interfaces are not probed").isFalse();
        assertThat(index.matchesLoaded(OtherThing.class)).as("a subtype without the hinted name").isFalse();
    }

    @Test
    void aClassBeingDefinedMatchesByItsOwnAndItsSuperTypesClassFileHeaders() throws IOException {
        ProbeIndex index = index();
        ClassLoader app = getClass().getClassLoader();
        assertThat(probed(index, app, FakeStatement.class)).as("through java/sql/PreparedStatement's header")
                .containsExactly("java.sql.Statement");
        assertThat(probed(index, app, SubStatement.class)).as("through its super class's header")
                .containsExactly("java.sql.Statement");
        assertThat(probed(index, app, NotAStatement.class)).as("the hint alone is not enough").isEmpty();
        assertThat(probed(index, app, OtherThing.class)).as("a subtype without the hinted name").isEmpty();
        assertThat(probed(index, app, java.sql.PreparedStatement.class)).as("interfaces are not probed").isEmpty();
        assertThat(probed(index, null, java.util.concurrent.FutureTask.class)).containsExactly(
                "java.util.concurrent.FutureTask");
        assertThat(index.probesFor(app, "com/example/BrokenStatement", new byte[]{1, 2, 3}))
                .as("bytes that are no class file match nothing").isEmpty();
    }

    private static List<String> probed(ProbeIndex index, ClassLoader loader, Class<?> type) throws IOException {
        String internal = type.getName().replace('.', '/');
        byte[] bytes = ClassFiles.read(type.getClassLoader(), internal + ".class");
        List<String> names = new ArrayList<>();
        for (TypeProbe probe : index.probesFor(loader, internal, bytes)) {
            names.add(probe.typeName());
        }
        return names;
    }

    /** Declared abstract: the test needs its type, never an object. */
    abstract static class FakeStatement implements java.sql.PreparedStatement {
    }

    abstract static class SubStatement extends FakeStatement {
    }

    static final class NotAStatement {
    }

    abstract static class OtherThing implements java.sql.Statement {
    }
}
