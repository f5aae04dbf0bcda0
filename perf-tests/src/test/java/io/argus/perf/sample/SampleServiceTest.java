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
    void unknownFlagExitsWithTwoAndOneErrorNamingIt() throws Exception {
        MainProcess exited = MainProcess.run(SampleService.class, "--name", "back", "--prot", "0");
        assertThat(exited.status()).isEqualTo(2);
        assertThat(exited.stderr()).containsExactly("SampleService: unknown option '--prot'",
                "Try 'SampleService --help' for the options.");
        exited = MainProcess.run(SampleService.class, "--port", "http");
        assertThat(exited.status()).isEqualTo(2);
        assertThat(exited.stderr()).containsExactly("SampleService: invalid value for --port: 'http' is not a number",
                "Try 'SampleService --help' for the options.");
    }
}
