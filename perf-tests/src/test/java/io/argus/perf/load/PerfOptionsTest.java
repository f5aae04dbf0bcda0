package io.argus.perf.load;

import io.argus.perf.harness.ArgusHome;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PerfOptionsTest {

    @Test
    void defaultsRunEveryScenarioButOtlpGrpc() throws Exception {
        PerfOptions o = PerfOptions.parse(new String[0]);
        assertThat(o.scenarios).containsExactly("baseline", "jvm-only", "default-0", "default-100", "default-100-deferred",
                "otel", "otel-otlp", "elastic");
        assertThat(o.observeTimeoutSeconds).isEqualTo(60);
        assertThat(o.moobench).isEqualTo("short");
        assertThat(o.rounds).isEqualTo(10);
        assertThat(o.roundSize).isEqualTo(1000);
        assertThat(o.discardRounds).isEqualTo(1);
    }

    @Test
    void placementIsSharedByDefaultAndSeparateOnRequest() throws Exception {
        assertThat(PerfOptions.parse(new String[0]).placement).isEqualTo("shared");
        assertThat(PerfOptions.parse(new String[]{"--quick", "--placement", "separate"}).placement).isEqualTo("separate");
        assertThat(PerfOptions.parse(new String[]{"--placement=shared", "--quick"}).placement).isEqualTo("shared");
        assertThatThrownBy(() -> PerfOptions.parse(new String[]{"--placement", "apart"}))
                .isInstanceOf(PerfOptions.BadArguments.class).hasMessageContaining("unknown placement 'apart'")
                .hasMessageContaining("shared, separate");
        assertThatThrownBy(() -> PerfOptions.parse(new String[]{"--placement"}))
                .isInstanceOf(PerfOptions.BadArguments.class).hasMessageContaining("--placement needs a value");
        assertThat(PerfOptions.usage()).contains("--placement P");
    }

    @Test
    void presetsAndExplicitOptionsWhateverTheOrder() throws Exception {
        PerfOptions quick = PerfOptions.parse(new String[]{"--rounds", "5", "--quick"});
        assertThat(quick.mode).isEqualTo("quick");
        assertThat(quick.rounds).isEqualTo(5);
        assertThat(quick.roundSize).isEqualTo(200);
        assertThat(quick.startupRuns).isEqualTo(2);
        assertThat(quick.gatlingSeconds).isEqualTo(5);

        PerfOptions full = PerfOptions.parse(new String[]{"--full", "--gatling-users=16"});
        assertThat(full.rounds).isEqualTo(12);
        assertThat(full.discardRounds).isEqualTo(6);
        assertThat(full.loadPasses).isEqualTo(3);
        assertThat(full.gatlingSeconds).isEqualTo(60);
        assertThat(full.gatlingUsers).isEqualTo(16);

        PerfOptions druid = PerfOptions.parse(new String[]{"--quick", "--target", "druid", "--druid-rows", "5000"});
        assertThat(druid.target).isEqualTo("druid");
        assertThat(druid.startupRuns).isZero();
        assertThat(druid.loadPasses).isEqualTo(1);
        assertThat(druid.roundSize).isEqualTo(500);
        assertThat(druid.druidRows).isEqualTo(5000);
        PerfOptions druidFull = PerfOptions.parse(new String[]{"--target=druid", "--full", "--load-passes", "3"});
        assertThat(druidFull.discardRounds).isEqualTo(1);
        assertThat(druidFull.rounds).isEqualTo(6);
        assertThat(druidFull.loadPasses).isEqualTo(3);
        assertThat(druidFull.endpoint).isEqualTo("sql");
        assertThat(PerfOptions.parse(new String[]{"--target", "druid", "--endpoint", "health"}).endpoint)
                .isEqualTo("health");
        assertThat(PerfOptions.parse(new String[]{}).endpoint).isEqualTo("call");
        // the Spring Boot target: one JPA read by default, its endpoints only
        assertThat(PerfOptions.parse(new String[]{"--target", "spring"}).endpoint).isEqualTo("owner");
        assertThatThrownBy(() -> PerfOptions.parse(new String[]{"--target", "spring", "--endpoint", "call"}))
                .hasMessageContaining("unknown endpoint 'call' for target spring");

        PerfOptions o = PerfOptions.parse(new String[]{"--scenarios", "baseline, otel", "--endpoint", "ping",
                "--jvm-opt", "-Xss512k", "--jvm-opt=--add-opens=java.base/java.lang=ALL-UNNAMED"});
        assertThat(o.scenarios).containsExactly("baseline", "otel");
        assertThat(o.endpoint).isEqualTo("ping");
        assertThat(o.jvmOptions).containsExactly("-Xss512k", "--add-opens=java.base/java.lang=ALL-UNNAMED");
    }

    @Test
    void badArgumentsSayWhatIsWrong() {
        for (List<String> args : List.of(List.of("--scenarios", "baseline,nope"), List.of("--rounds", "x"),
                List.of("--rounds"), List.of("--quick", "--full"), List.of("--what"), List.of("--target", "druid2"),
                List.of("--rounds", "3", "--discard", "3"), List.of("--endpoint", "slow"),
                List.of("--endpoint", "health"), List.of("--target", "druid", "--endpoint", "call"),
                List.of("--scenarios", "otel,otel"), List.of("--round-size", "0"),
                List.of("--java", "/no/such/java"), List.of("--observe-timeout", "0"), List.of("--moobench", "long"))) {
            assertThatThrownBy(() -> PerfOptions.parse(args.toArray(String[]::new)))
                    .as(String.join(" ", args)).isInstanceOf(PerfOptions.BadArguments.class)
                    .hasMessageNotContaining("Exception");
        }
    }

    @Test
    void mainExitsWithTwoOnBadArgumentsAndZeroOnHelp() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PerfMain.run(new String[]{"--rounds", "-1"}, new PrintStream(out), new PrintStream(err));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--rounds must be at least 0");
        assertThat(PerfMain.run(new String[]{"--help"}, new PrintStream(out), new PrintStream(err))).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("--scenarios", "--quick", "--full");
    }

    @Test
    void theUsageNamesEveryOption() {
        assertThat(new PerfOptions().commandLine(new boolean[1]).optionsMissingFromUsage()).isEmpty();
    }

    @Test
    void unknownFlagExitsWithTwoAndOneErrorNamingIt() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PerfMain.run(new String[]{"--quick", "--round=3"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "argus-perf: unknown option '--round'", "Try 'argus-perf --help' for the options.");
    }

    @Test
    void missingAgentIsReportedBeforeAnythingStarts() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        java.nio.file.Path empty = java.nio.file.Files.createTempDirectory("argus-home");
        int code = PerfMain.run(new String[]{"--argus-home", empty.toString(), "--scenarios", "baseline,default-0"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("argus-agent.jar", "argus-collector");
    }

    @Test
    void scenarioFlags() {
        ArgusHome home = new ArgusHome(java.nio.file.Path.of("/opt/argus"));
        java.nio.file.Path peers = java.nio.file.Path.of("/opt/argus/perf/peers");
        RunFiles files = RunFiles.in(java.nio.file.Path.of("/runs/1"));
        List<String> jvmOnly = Scenario.JVM_ONLY.jvmOptions("front", home, peers, "127.0.0.1:9", "http://127.0.0.1:8", List.of("jvm", "jetty",
                "okhttp"), RunFiles.NONE);
        assertThat(jvmOnly).containsExactly("-javaagent:/opt/argus/agent/argus-agent.jar", "-Dargus.service.name=front",
                "-Dargus.collector.address=127.0.0.1:9", "-Dargus.tracing.samplingRate=0",
                "-Dargus.plugin.jetty.enabled=false", "-Dargus.plugin.okhttp.enabled=false");
        assertThat(Scenario.DEFAULT_100.jvmOptions("back", home, peers, "127.0.0.1:9", "http://127.0.0.1:8", List.of("jvm"), RunFiles.NONE))
                .contains("-Dargus.tracing.samplingRate=100", "-Dargus.service.name=back");
        assertThat(Scenario.OTEL.jvmOptions("front", home, peers, "x", "y", List.of(), RunFiles.NONE)).contains(
                "-javaagent:/opt/argus/perf/peers/opentelemetry-javaagent.jar", "-Dotel.traces.exporter=none",
                "-Dotel.metrics.exporter=none", "-Dotel.logs.exporter=none");
        List<String> otlp = Scenario.OTEL_OTLP.jvmOptions("back", home, peers, "127.0.0.1:9", "http://127.0.0.1:8",
                List.of(), RunFiles.NONE);
        assertThat(otlp).contains("-javaagent:/opt/argus/perf/peers/opentelemetry-javaagent.jar",
                "-Dotel.service.name=back", "-Dotel.exporter.otlp.protocol=http/protobuf",
                "-Dotel.exporter.otlp.endpoint=http://127.0.0.1:8", "-Dotel.traces.exporter=otlp",
                "-Dotel.metrics.exporter=otlp", "-Dotel.logs.exporter=none");
        assertThat(Scenario.OTEL_OTLP.needsCollector()).isTrue();
        assertThat(Scenario.names()).contains("otel", "otel-otlp");
        assertThat(Scenario.ELASTIC.jvmOptions("front", home, peers, "x", "y", List.of(), RunFiles.NONE)).contains(
                "-Delastic.apm.disable_send=true", "-Delastic.apm.service_name=front",
                "-Delastic.apm.central_config=false", "-Delastic.apm.cloud_provider=NONE");
        assertThat(Scenario.BASELINE.jvmOptions("front", home, peers, "x", "y", List.of(), files)).isEmpty();
        // the deferred start-up is Argus at 100% with the opt-in mode; the default mode is left to the agent
        assertThat(Scenario.DEFAULT_100_DEFERRED.jvmOptions("front", home, peers, "127.0.0.1:9", "y", List.of("jvm"), RunFiles.NONE))
                .contains("-Dargus.tracing.samplingRate=100", "-Dargus.startup.mode=deferred");
        assertThat(Scenario.DEFAULT_100.jvmOptions("front", home, peers, "127.0.0.1:9", "y", List.of("jvm"), RunFiles.NONE))
                .noneMatch(o -> o.startsWith("-Dargus.startup"));
        // observed where the agent exports a sampled caller's trace to the run's collector
        assertThat(Scenario.ALL.stream().filter(Scenario::observable).map(Scenario::name))
                .containsExactly("default-0", "default-0-cold", "default-100", "default-100-deferred", "otel-otlp",
                        "otel-otlp-grpc");
        // the run's launches share one class-cache folder, whatever java.io.tmpdir the target gives; cold uses none
        assertThat(Scenario.DEFAULT_0.jvmOptions("front", home, peers, "127.0.0.1:9", "y", List.of("jvm"), files))
                .contains("-Dargus.startup.classCacheDir=/runs/1/class-cache");
        assertThat(Scenario.DEFAULT_0_COLD.jvmOptions("front", home, peers, "127.0.0.1:9", "y", List.of("jvm"), files))
                .contains("-Dargus.tracing.samplingRate=0", "-Dargus.startup.classCache=false")
                .noneMatch(o -> o.startsWith("-Dargus.startup.classCacheDir"));
        assertThat(Scenario.OTEL_OTLP.jvmOptions("front", home, peers, "x", "y", List.of(), files))
                .noneMatch(o -> o.contains("classCache"));
        // the floor: the run's own no-op agent, and nothing else
        assertThat(Scenario.TRANSFORMER_FLOOR.jvmOptions("front", home, peers, "x", "y", List.of("jvm"), files))
                .containsExactly("-javaagent:/runs/1/transformer-floor-agent.jar");
        assertThat(Scenario.DEFAULTS).doesNotContain(Scenario.TRANSFORMER_FLOOR);
        assertThat(Scenario.TRANSFORMER_FLOOR.readyOnlyReason()).isEqualTo("it traces nothing");
        assertThat(Scenario.OTEL.readyOnlyReason()).contains("exporters are off");
        assertThat(Scenario.DEFAULT_0.readyOnlyReason()).isNull();
    }
}
