package io.argus.cluster.fetch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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

    @Test
    void thePomListsEachArtifactWithItsExclusions() {
        String pom = MavenFetch.pom(List.of(new Artifact("org.apache.druid", "druid-services", "33.0.0",
                List.of("org.hyperic:sigar")), new Artifact("org.apache.kafka", "kafka_2.13", "4.1.0")));
        assertThat(pom).contains("<artifactId>druid-services</artifactId>", "<version>33.0.0</version>",
                "<exclusion><groupId>org.hyperic</groupId><artifactId>sigar</artifactId></exclusion>",
                "<artifactId>kafka_2.13</artifactId>", "<version>4.1.0</version>");
        assertThat(pom.indexOf("<exclusions>")).isEqualTo(pom.lastIndexOf("<exclusions>"));
    }

    @Test
    void aCompleteFetchIsNotRunAgain() throws Exception {
        Path home = dir.resolve("home");
        Files.createDirectories(home);
        MavenFetch.markComplete(home, "1");
        // the POM is never written: a marked folder is taken as it is
        MavenFetch.of(home, "", home.resolve("lib"), List.of(new Artifact("g", "a", "1")))
                .once("g:a", home, "1", "a-1.jar", System.out, into -> {
                    throw new AssertionError("ran");
                });
        assertThat(home.resolve("pom.xml")).doesNotExist();
    }
}
