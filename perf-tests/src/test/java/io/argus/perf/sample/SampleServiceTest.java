package io.argus.perf.sample;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.cli.MainProcess;
import org.junit.jupiter.api.Test;

/** The sample service's flags: defaults, and one clear error for a bad one. */
class SampleServiceTest {

    @Test
    void defaultsAndFlags() {
        SampleService.Options o = new SampleService.Options();
        o.commandLine().parse("--name", "back", "--port=0", "--downstream", "http://127.0.0.1:1");
        assertThat(o.name).isEqualTo("back");
        assertThat(o.port).isZero();
        assertThat(o.downstream).isEqualTo("http://127.0.0.1:1");
        assertThat(o.downstreamName).isEqualTo("back");
        assertThat(o.threads).isEqualTo(32);
    }

    @Test
    void theUsageNamesEveryOption() {
        assertThat(new SampleService.Options().commandLine().optionsMissingFromUsage()).isEmpty();
    }

    @Test
    void unknownFlagExitsWithTwoAndOneErrorNamingIt() throws Exception {
        assertThat(MainProcess.run(SampleService.class, "--name", "back", "--prot", "0"))
                .isEqualTo(MainProcess.usageError("SampleService", "unknown option '--prot'"));
        assertThat(MainProcess.run(SampleService.class, "--port", "http"))
                .isEqualTo(MainProcess.usageError("SampleService", "invalid value for --port: 'http' is not a number"));
    }
}
