package io.argus.perf.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared fetch of Druid's and Kafka's jars, without fetching: its Maven command and its markers. */
class MavenFetchTest {

    @TempDir
    Path dir;

    @Test
    void mavenCopiesTheRuntimeDependenciesOfThePomIntoTheFolder() {
        MavenFetch fetch = new MavenFetch("<project/>", dir.resolve("pom.xml"), dir.resolve("lib"),
                dir.resolve("fetch.log"));
        assertThat(fetch.command("3.9.0")).contains("-B", "-q", "-f", dir.resolve("pom.xml").toString(),
                "org.apache.maven.plugins:maven-dependency-plugin:3.9.0:copy-dependencies",
                "-DoutputDirectory=" + dir.resolve("lib"), "-DincludeScope=runtime");
    }

    @Test
    void aFetchIsCompleteOnlyOnceMarkedAndOnlyWithItsJar() throws IOException {
        MavenFetch fetch = new MavenFetch("<project/>", dir.resolve("pom.xml"), dir.resolve("lib"),
                dir.resolve("fetch.log"));
        assertThat(MavenFetch.complete(dir)).isFalse();
        assertThatThrownBy(() -> fetch.expect("x-1.jar")).isInstanceOf(IOException.class)
                .hasMessageContaining("holds no x-1.jar");
        Files.createDirectories(dir.resolve("lib"));
        Files.writeString(dir.resolve("lib").resolve("x-1.jar"), "");
        fetch.expect("x-1.jar");
        MavenFetch.markComplete(dir, "1");
        assertThat(MavenFetch.complete(dir)).isTrue();
        assertThat(Files.readString(dir.resolve(MavenFetch.COMPLETE)).trim()).isEqualTo("1");
    }
}
