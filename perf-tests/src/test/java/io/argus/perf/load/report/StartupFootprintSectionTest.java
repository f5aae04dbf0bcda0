package io.argus.perf.load.report;

import io.argus.perf.harness.report.Markdown;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class StartupFootprintSectionTest {

    @Test
    void theAgentsClassesAndCpuAreTheScenarioMinusTheBaselineBesideThePreviousRelease() {
        Properties previous = new Properties();
        previous.setProperty("sample.default-0.front.jdk17.classes", "1700");
        previous.setProperty("sample.default-0.front.jdk17.cpuMs", "20");
        Markdown md = new Markdown();
        new StartupFootprintSection(previous).render(SyntheticResults.make(), md);
        String text = md.toString();
        // synthetic: 1,600 more classes for every Argus scenario, CPU 900 x the scenario's slowdown (1.02 at default-0)
        assertThat(text).contains("| default-0 | front | 1,600 | 1,700 | −100 (×0.94) | 18 | 20 | −2 (×0.90) |");
        assertThat(text).contains("| default-0 | back | 1,600 | – | – | 18 | – | – |");
        assertThat(text).as("peers are not Argus's to explain").doesNotContain("| otel |");
    }

    @Test
    void theCommittedPreviousFiguresAreFound() {
        assertThat(StartupFootprintSection.class.getResource(StartupFootprintSection.PREVIOUS)).isNotNull();
        assertThat(StartupFootprintSection.javaMajor("openjdk version \"25.0.3\" 2026-04-21 LTS")).isEqualTo("25");
    }
}
