package io.argus.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class StartupModeTest {

    @TempDir
    Path home;

    @AfterEach
    void clear() {
        System.clearProperty(StartupMode.KEY);
        System.clearProperty("argus.config.file");
    }

    @Test
    void byDefaultPremainDoesNotWait() {
        assertThat(StartupMode.waitForInstrumentation(home.toFile())).isFalse();
    }

    @Test
    void theAgentsConfigFileIsRead() throws IOException {
        writeConfig(home.resolve("conf/agent.properties"), "argus.startup.waitForInstrumentation = true");
        assertThat(StartupMode.waitForInstrumentation(home.toFile())).isTrue();
    }

    @Test
    void anotherConfigFileIsReadWhenNamed() throws IOException {
        Path other = home.resolve("elsewhere.properties");
        writeConfig(other, "argus.startup.waitForInstrumentation=yes");
        System.setProperty("argus.config.file", other.toString());
        assertThat(StartupMode.waitForInstrumentation(home.toFile())).isTrue();
    }

    @Test
    void theSystemPropertyComesBeforeTheFile() throws IOException {
        writeConfig(home.resolve("conf/agent.properties"), "argus.startup.waitForInstrumentation=true");
        System.setProperty(StartupMode.KEY, "off");
        assertThat(StartupMode.waitForInstrumentation(home.toFile())).isFalse();
        System.setProperty(StartupMode.KEY, " On ");
        assertThat(StartupMode.waitForInstrumentation(home.toFile())).isTrue();
    }

    @Test
    void anUnreadableValueDoesNotWait() {
        System.setProperty(StartupMode.KEY, "sometimes");
        assertThat(StartupMode.waitForInstrumentation(home.toFile())).isFalse();
    }

    private static void writeConfig(Path file, String line) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, (line + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
