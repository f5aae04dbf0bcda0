package io.argus.perf.moobench;

import io.argus.cli.MainProcess;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MooBenchOptionsTest {

    @Test
    void defaultsFollowMooBench() {
        MooBenchOptions o = MooBenchOptions.parse();
        assertThat(o.calls).isEqualTo(2_000_000);
        assertThat(o.depth).isEqualTo(10);
        assertThat(o.methodTime).isZero();
        assertThat(o.runs).isEqualTo(3);
        assertThat(o.depthRuns).isEqualTo(3);
        assertThat(o.depths).containsExactly(1, 2, 4, 8, 16, 32);
        assertThat(o.configs).containsExactly(BenchConfig.values());
        assertThat(o.depthConfigs).containsExactly(BenchConfig.T, BenchConfig.T_I, BenchConfig.T_I_C, BenchConfig.T_I_C_W);
        assertThat(o.pin).isTrue();
        assertThat(o.bins).isEqualTo(1000);
    }

    @Test
    void quickSetsDefaultsThatExplicitOptionsOverride() {
        MooBenchOptions quick = MooBenchOptions.parse("--quick");
        assertThat(quick.calls).isEqualTo(200_000);
        assertThat(quick.runs).isEqualTo(1);
        assertThat(quick.depths).containsExactly(1, 4);
        MooBenchOptions o = MooBenchOptions.parse("--calls", "50000", "--quick", "--runs=2", "--depths", "32,1, 4",
                "--configs", "T, t+i+c,otel-on", "--jvm-opt=-XX:+UseSerialGC", "--jvm-opt", "-Dx=1", "--out", "/tmp/x",
                "--no-pin", "--method-time", "1_000");
        assertThat(o.calls).isEqualTo(50_000);
        assertThat(o.runs).isEqualTo(2);
        assertThat(o.depthRuns).isEqualTo(2);
        assertThat(o.depths).containsExactly(1, 4, 32);
        assertThat(o.configs).containsExactly(BenchConfig.T, BenchConfig.T_I_C, BenchConfig.OTEL_ON);
        assertThat(o.jvmOptions).containsExactly("-XX:+UseSerialGC", "-Dx=1");
        assertThat(o.out).isEqualTo(Path.of("/tmp/x"));
        assertThat(o.pin).isFalse();
        assertThat(o.methodTime).isEqualTo(1000);
        assertThat(MooBenchOptions.parse("--depths", "none").depths).isEmpty();
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        assertThatThrownBy(() -> MooBenchOptions.parse("--configs", "T,X")).hasMessageContaining("unknown configuration 'X'");
        assertThatThrownBy(() -> MooBenchOptions.parse("--calls", "1")).hasMessageContaining("at least 2");
        assertThatThrownBy(() -> MooBenchOptions.parse("--depth", "ten")).hasMessageContaining("whole number");
        assertThatThrownBy(() -> MooBenchOptions.parse("--runs")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> MooBenchOptions.parse("--frobnicate", "1")).hasMessageContaining("unknown option");
        assertThatThrownBy(() -> MooBenchOptions.parse("--depths", "4")).hasMessageContaining("two or more");
        assertThatThrownBy(() -> MooBenchOptions.parse("--depth-configs", "T+I")).hasMessageContaining("must include T");
        assertThatThrownBy(() -> MooBenchOptions.parse("--bench-cpu", "0")).hasMessageContaining("must differ");
        assertThatThrownBy(() -> MooBenchOptions.parse("--method-time", "-1")).hasMessageContaining("negative");
    }

    @Test
    void configurationFlags() {
        Path agent = Path.of("/opt/argus/agent");
        Path otel = Path.of("/opt/otel.jar");
        assertThat(BenchConfig.T.agentFlags(agent, otel, null)).isEmpty();
        List<String> ti = BenchConfig.T_I.agentFlags(agent, otel, null);
        assertThat(ti).contains("-javaagent:/opt/argus/agent/argus-agent.jar", "-Dargus.tracing.samplingRate=0",
                "-Dargus.exporter.mode=discard", "-Dargus.startup.mode=premain", "-Dargus.trace.methods=io.argus.perf.moobench.MonitoredClass#monitoredMethod");
        assertThat(BenchConfig.T_I_C.agentFlags(agent, otel, null)).contains("-Dargus.tracing.samplingRate=100",
                "-Dargus.exporter.mode=discard");
        List<String> w = BenchConfig.T_I_C_W.agentFlags(agent, otel, "127.0.0.1:4711");
        assertThat(w).contains("-Dargus.tracing.samplingRate=100", "-Dargus.collector.address=127.0.0.1:4711");
        assertThat(w).noneMatch(f -> f.contains("exporter.mode") || f.contains("blockWhenFull"));
        List<String> all = BenchConfig.T_I_C_W_ALL.agentFlags(agent, otel, "127.0.0.1:4711");
        assertThat(all).containsAll(w).contains("-Dargus.exporter.blockWhenFull=true");
        assertThat(BenchConfig.T_I_C_W_ALL.needsCollector()).isTrue();
        assertThat(BenchConfig.T_I_C_W_ALL.isArgus()).isTrue();
        assertThat(BenchConfig.parse("T+I+C+W(all)")).isEqualTo(BenchConfig.T_I_C_W_ALL);
        assertThat(BenchConfig.T_I_C_W_ALL.fileName()).isEqualTo("TICWall");
        assertThat(BenchConfig.T_I_C.fileName()).isEqualTo("TIC");
        List<String> off = BenchConfig.OTEL_OFF.agentFlags(agent, otel, null);
        assertThat(off).contains("-javaagent:/opt/otel.jar", "-Dotel.traces.sampler=always_off", "-Dotel.traces.exporter=none",
                "-Dotel.instrumentation.methods.include=io.argus.perf.moobench.MonitoredClass[monitoredMethod]");
        List<String> on = BenchConfig.OTEL_ON.agentFlags(agent, otel, null);
        assertThat(on).contains("-Dotel.traces.exporter=none").noneMatch(f -> f.contains("sampler"));
        assertThat(BenchConfig.parse("t+I+c+W")).isEqualTo(BenchConfig.T_I_C_W);
    }

    @Test
    void benchmarkJvmFactsAndAgentChecks() throws Exception {
        List<String> lines = List.of("[argus] Argus dev started in 80 ms: service=moobench, collector=discard, sampling=100.0%,"
                        + " plugins=[jvm, method]", "MOOBENCH pin=cpu1 tid=12", "MOOBENCH calls=1000", "MOOBENCH argus_sentSpans=4000",
                "MOOBENCH argus_droppedSpans=6000", "MOOBENCH done=true");
        var facts = MooBenchMain.facts(lines);
        assertThat(facts).containsEntry("pin", "cpu1 tid=12").containsEntry("calls", "1000").containsEntry("done", "true");
        MooBenchMain.checkAgent(BenchConfig.T_I_C, lines, facts, 10);
        assertThatThrownBy(() -> MooBenchMain.checkAgent(BenchConfig.T_I, List.of("[argus] Argus dev started in 80 ms: plugins=[jvm]"),
                facts, 10)).hasMessageContaining("method plugin");
        assertThatThrownBy(() -> MooBenchMain.checkAgent(BenchConfig.OTEL_ON, List.of("hello"), facts, 10))
                .hasMessageContaining("OpenTelemetry");
    }

    @Test
    void spansSentPerSecondAndTheDropShareOfTheMeasuredHalf() {
        MooResults.RunResult r = new MooResults.RunResult();
        MooBenchMain.readFacts(MooBenchMain.facts(List.of("MOOBENCH argus_sentSpans=5000", "MOOBENCH argus_droppedSpans=9000",
                "MOOBENCH argus_sentSpans_steady=1000", "MOOBENCH argus_droppedSpans_steady=3000",
                "MOOBENCH steady_wall_ns=500000000")), r);
        assertThat(r.spansSentPerSecond).isEqualTo(2000.0);
        assertThat(r.dropShare).isEqualTo(0.75);
        assertThat(r.counters).containsEntry("argus.sentSpans", 5000L).containsEntry("argus.sentSpansSteady", 1000L)
                .containsEntry("argus.droppedSpansSteady", 3000L);
        MooResults.RunResult t = new MooResults.RunResult();
        MooBenchMain.readFacts(MooBenchMain.facts(List.of("MOOBENCH steady_wall_ns=500000000")), t);
        assertThat(t.spansSentPerSecond).isNull();
        assertThat(t.dropShare).isNull();
    }

    @Test
    void unknownFlagExitsWithTwoAndOneErrorNamingIt() throws Exception {
        assertThat(MainProcess.run(MooBenchMain.class, "--quick", "--frobnicate", "1"))
                .isEqualTo(MainProcess.usageError("argus-moobench", "unknown option '--frobnicate'"));
    }

    @Test
    void theUsageNamesEveryOption() {
        assertThat(new MooBenchOptions().commandLine().optionsMissingFromUsage()).isEmpty();
    }

    @Test
    void helpAndCompletionAreAnswered() {
        assertThat(MooBenchOptions.parse("--help").help).isTrue();
        assertThat(MooBenchOptions.parse("--completion").completionScript).contains("--depth-configs");
        assertThat(MooBenchOptions.help()).contains("--no-span-check", "argus-moobench --completion");
    }
}
