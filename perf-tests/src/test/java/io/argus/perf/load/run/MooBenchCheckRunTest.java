package io.argus.perf.load.run;

import io.argus.perf.harness.ArgusHome;
import io.argus.perf.load.model.RunResults.MooBenchCheck;
import io.argus.perf.moobench.MooBenchOptions;
import io.argus.perf.moobench.MooResults;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MooBenchCheckRunTest {

    @Test
    void theShortConfigurationIsAValidMooBenchCommandLine() {
        MooBenchCheckRun run = new MooBenchCheckRun(new ArgusHome(Path.of("/opt/argus")), Path.of("/usr/bin/java"),
                Path.of("/tmp/report"), false);
        MooBenchOptions o = MooBenchOptions.parse(run.arguments().toArray(String[]::new));
        assertThat(o.configs).extracting(c -> c.label()).containsExactly("T", "T+I", "T+I+C");
        assertThat(o.runs).isEqualTo(1);
        assertThat(o.depths).isEmpty();
        assertThat(o.calls).isEqualTo(MooBenchCheckRun.CALLS);
        assertThat(o.out).isEqualTo(Path.of("/tmp/report/moobench"));
        assertThat(o.depth).isEqualTo(10);
        MooBenchCheckRun quick = new MooBenchCheckRun(new ArgusHome(Path.of("/opt/argus")), Path.of("/usr/bin/java"),
                Path.of("/tmp/report"), true);
        assertThat(MooBenchOptions.parse(quick.arguments().toArray(String[]::new)).calls)
                .isEqualTo(MooBenchCheckRun.QUICK_CALLS);
    }

    /** Per call at depth 10: I = (T+I - T) / 10, C = (T+I+C - T+I) / 10. */
    @Test
    void thePortionsPerCall() {
        MooResults results = new MooResults();
        results.configs.add(config("T", 100, 98));
        results.configs.add(config("T+I", 124, 120));
        results.configs.add(config("T+I+C", 1_124, 1_000));
        MooBenchCheck c = new MooBenchCheck();
        MooBenchCheckRun.summarize(results, c);
        assertThat(c.configs).extracting(x -> x.name).containsExactly("T", "T+I", "T+I+C");
        assertThat(c.perCallMeanNs.get("I")).isCloseTo(2.4, within(1e-9));
        assertThat(c.perCallMeanNs.get("C")).isCloseTo(100.0, within(1e-9));
        assertThat(c.perCallMedianNs.get("C")).isCloseTo(88.0, within(1e-9));
        assertThat(c.error).isNull();

        results.failures.add("T+I+C depth 10 run 1: exit status 1");
        MooBenchCheck failed = new MooBenchCheck();
        MooBenchCheckRun.summarize(results, failed);
        assertThat(failed.error).contains("exit status 1");
    }

    private static MooResults.ConfigResult config(String name, double mean, double median) {
        MooResults.ConfigResult c = new MooResults.ConfigResult();
        c.name = name;
        c.depth = 10;
        c.response = new MooResults.ResponseTimes();
        c.response.mean = mean;
        c.response.median = median;
        c.response.trimmedMean = mean;
        MooResults.RunResult r = new MooResults.RunResult();
        r.ok = true;
        c.runs.add(r);
        return c;
    }
}
