package io.argus.perf.floor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;

import static org.assertj.core.api.Assertions.assertThat;

class TransformerFloorJarTest {

    @TempDir
    Path dir;

    @Test
    void theJarIsAnAgentThatAJvmStartsWith() throws Exception {
        Path jar = dir.resolve(TransformerFloorJar.FILE_NAME);
        TransformerFloorJar.write(jar);
        try (JarFile file = new JarFile(jar.toFile())) {
            assertThat(file.getManifest().getMainAttributes().getValue("Premain-Class"))
                    .isEqualTo(TransformerFloorAgent.class.getName());
            assertThat(file.getEntry("io/argus/perf/floor/TransformerFloorAgent$NoChange.class")).isNotNull();
        }
        Process java = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + jar, "-version").redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(java.exitValue()).as(output).isZero();
        assertThat(output).contains("version").doesNotContainIgnoringCase("error");
    }
}
