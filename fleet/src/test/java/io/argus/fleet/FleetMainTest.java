package io.argus.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.argus.cli.MainProcess;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet command's flags: what it takes from a distribution folder, and one clear error for bad input. */
class FleetMainTest {
    @TempDir
    Path home;

    private void distribution(String... perfJars) throws IOException {
        Files.createDirectories(home.resolve("agent"));
        Files.writeString(home.resolve("agent/argus-agent.jar"), "");
        Files.createDirectories(home.resolve("perf/lib"));
        for (String jar : perfJars) {
            Files.writeString(home.resolve("perf/lib").resolve(jar), "");
        }
    }

    private static final String[] SERVICE_JARS = {"argus-perf-tests-0.1.0.jar", "jetty-server-12.1.14.jar",
        "jetty-http-12.1.14.jar", "jetty-io-12.1.14.jar", "jetty-util-12.1.14.jar", "slf4j-api-2.0.17.jar"};

    @Test
    void takesTheAgentCollectorAndSampleServiceFromTheDistribution() throws IOException {
        distribution(SERVICE_JARS);
        // the suite's other jars stay off the sample service's class path
        Files.writeString(home.resolve("perf/lib/netty-common-4.2.0.jar"), "");
        Files.writeString(home.resolve("perf/lib/gatling-core-3.13.jar"), "");
        FleetOptions o = FleetMain.parse(new String[] {"--argus-home", home.toString(), "--work", "w",
            "--http-port", "9897", "--rate", "2.5"});
        assertThat(o.agentJar()).isEqualTo(home.resolve("agent/argus-agent.jar").toAbsolutePath());
        assertThat(o.collectorClassPath()).isEqualTo(home.resolve("collector/lib") + File.separator + "*");
        assertThat(List.of(o.serviceClassPath().split(File.pathSeparator))).hasSize(6)
                .allSatisfy(p -> assertThat(p).doesNotContain("netty", "gatling"));
        assertThat(o.work()).isEqualTo(Path.of("w").toAbsolutePath());
        assertThat(o.queryHttpPort()).isEqualTo(9897);
        assertThat(o.requestsPerSecond()).isEqualTo(2.5);
        assertThat(o.prefix()).isEqualTo("argus-");
    }

    @Test
    void defaults() throws IOException {
        distribution(SERVICE_JARS);
        FleetOptions o = FleetMain.parse(new String[] {"--argus-home", home.toString()});
        assertThat(o.work()).isEqualTo(Path.of("argus-fleet").toAbsolutePath());
        assertThat(o.queryHttpPort()).isZero();
        assertThat(o.requestsPerSecond()).isEqualTo(5);
    }

    @Test
    void badInputIsOneErrorNamingTheFlag() throws IOException {
        distribution(SERVICE_JARS);
        String h = home.toString();
        assertThatThrownBy(() -> FleetMain.parse(new String[] {"--argus-home", h, "--rate", "fast"}))
                .hasMessage("invalid value for --rate: 'fast'");
        assertThatThrownBy(() -> FleetMain.parse(new String[] {"--argus-home", h, "--rate", "-1"}))
                .hasMessageContaining("invalid value for --rate: -1.0");
        assertThatThrownBy(() -> FleetMain.parse(new String[] {"--argus-home", h, "--http-port", "70000"}))
                .hasMessage("invalid value for --http-port: 70000");
        assertThatThrownBy(() -> FleetMain.parse(new String[] {"--argus-home", h, "--nodes", "3"}))
                .hasMessage("unknown option '--nodes'");
        assertThatThrownBy(() -> FleetMain.parse(new String[] {"--argus-home", h, "--work"}))
                .hasMessage("--work needs a value");
        assertThatThrownBy(() -> FleetMain.parse(new String[0]))
                .hasMessageContaining("--argus-home is required");
    }

    @Test
    void aDistributionWithoutTheAgentOrTheSampleServiceIsNamed() throws IOException {
        Path empty = home.resolve("empty");
        Files.createDirectories(empty);
        assertThatThrownBy(() -> FleetMain.parse(new String[] {"--argus-home", empty.toString()}))
                .hasMessageContaining("invalid --agent / --argus-home: no agent jar at");
        distribution("argus-perf-tests-0.1.0.jar", "slf4j-api-2.0.17.jar");
        assertThatThrownBy(() -> FleetMain.parse(new String[] {"--argus-home", home.toString()}))
                .hasMessageContaining("invalid --argus-home: no jetty-server-*.jar in");
    }

    @Test
    void theUsageNamesEveryOption() {
        assertThat(FleetMain.commandLine(new HashMap<>()).optionsMissingFromUsage()).isEmpty();
    }

    @Test
    void unknownFlagExitsWithTwoAndOneErrorNamingIt() throws Exception {
        assertThat(MainProcess.run(FleetMain.class, "--work", "w", "--nodes", "3"))
                .isEqualTo(MainProcess.usageError("argus-fleet", "unknown option '--nodes'"));
    }
}
