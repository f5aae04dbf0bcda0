package io.argus.perf.load.run;

import io.argus.perf.harness.http.RequestSpec;
import io.argus.perf.harness.run.CollectorProcess;
import io.argus.cluster.druid.DruidInstall;
import io.argus.perf.load.druid.DruidTarget;
import io.argus.perf.load.target.LaunchPlan;
import io.argus.perf.load.target.ProcessSpec;
import io.argus.perf.load.target.SampleTarget;
import io.argus.perf.load.target.Target;
import io.argus.perf.load.target.TargetEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The CPU split of --placement and the command lines it prefixes, without starting anything. */
class PlacementTest {

    private static final Path JAVA = Path.of("/usr/bin/java");
    private static final Function<String, List<String>> AGENT =
            service -> List.of("-javaagent:/x/argus-agent.jar", "-Dargus.service.name=" + service);

    @TempDir
    Path dir;

    @Test
    void sharedPinsNothing() {
        Placement p = Placement.of("shared", 2);
        assertThat(p.isSeparate()).isFalse();
        assertThat(p.targetPrefix()).isEmpty();
        assertThat(p.loadPrefix()).isEmpty();
        assertThat(p.targetCpus()).isNull();
        assertThat(p.describe()).contains("shared").contains("--placement separate");
    }

    @Test
    void separateOnTwoCpusPutsTheTargetsOnCpu0AndCollectorAndLoadOnCpu1() {
        Placement p = Placement.of("separate", 2);
        assertThat(p.isSeparate()).isTrue();
        assertThat(p.targetPrefix()).containsExactly("taskset", "-c", "0");
        assertThat(p.loadPrefix()).containsExactly("taskset", "-c", "1");
        assertThat(p.describe()).contains("CPU 0").contains("CPU 1").contains("baseline included")
                .contains("--placement shared");
    }

    @Test
    void separateSplitsLargerMachinesInHalves() {
        Placement four = Placement.separate(4);
        assertThat(four.targetCpus()).isEqualTo("0-1");
        assertThat(four.loadCpus()).isEqualTo("2-3");
        Placement three = Placement.separate(3);
        assertThat(three.targetCpus()).isEqualTo("0");
        assertThat(three.loadCpus()).isEqualTo("1-2");
    }

    @Test
    void separateNeedsTwoCpusAndNamesAreChecked() {
        assertThatThrownBy(() -> Placement.separate(1)).hasMessageContaining("at least 2 CPUs");
        assertThatThrownBy(() -> Placement.of("apart", 2)).hasMessageContaining("unknown placement 'apart'");
    }

    private List<List<String>> commands(Target target, Placement placement) throws Exception {
        TargetEnv env = new TargetEnv(JAVA, dir.resolve("work"), AGENT, List.of("-Dextra=1"), true);
        LaunchPlan plan = target.plan(env);
        Launcher launcher = new Launcher(JAVA, List.of("-Dextra=1"), placement.targetPrefix());
        return plan.processes().stream().map(spec -> launcher.command(spec, AGENT)).toList();
    }

    @Test
    void everySampleProcessIsPinnedToTheTargetCpusInFrontOfItsUsualCommand() throws Exception {
        List<List<String>> pinned = commands(new SampleTarget("call"), Placement.separate(2));
        List<List<String>> shared = commands(new SampleTarget("call"), Placement.shared());
        assertThat(pinned).hasSize(2);
        for (int i = 0; i < pinned.size(); i++) {
            List<String> cmd = pinned.get(i);
            assertThat(cmd.subList(0, 4)).containsExactly("taskset", "-c", "0", JAVA.toString());
            assertThat(cmd).contains("-javaagent:/x/argus-agent.jar", "-Dextra=1", "-cp");
            // the same command as without pinning, but for the ports each plan picks afresh
            assertThat(cmd.subList(3, cmd.size())).hasSameSizeAs(shared.get(i));
            assertThat(shared.get(i).get(0)).isEqualTo(JAVA.toString());
        }
    }

    @Test
    void everyDruidProcessIsPinnedZooKeeperIncluded() throws Exception {
        DruidTarget druid = new DruidTarget(new DruidInstall(dir.resolve("druid"), "33.0.0"), 20_000, "sql", System.out);
        List<List<String>> cmds = commands(druid, Placement.separate(2));
        assertThat(cmds).hasSize(6);
        for (List<String> cmd : cmds) {
            assertThat(cmd.subList(0, 4)).containsExactly("taskset", "-c", "0", JAVA.toString());
        }
    }

    @Test
    void gatlingAndTheCollectorArePinnedToTheLoadCpus() {
        Placement p = Placement.separate(2);
        GatlingRunner gatling = new GatlingRunner(JAVA, "gatling.jar", p.loadPrefix());
        List<String> cmd = gatling.command(RequestSpec.get("http://127.0.0.1:1/front/call"), 8, 5, dir, "test");
        assertThat(cmd.subList(0, 4)).containsExactly("taskset", "-c", "1", JAVA.toString());
        assertThat(cmd).contains("io.gatling.app.Gatling");
        assertThat(new GatlingRunner(JAVA, "gatling.jar").command(RequestSpec.get("http://127.0.0.1:1/"), 8, 5, dir,
                "test").get(0)).isEqualTo(JAVA.toString());

        CollectorProcess.Launch collector = CollectorProcess.Launch.script(Path.of("/argus/collector/bin/argus-collector"),
                Path.of("/jdk")).prefixed(p.loadPrefix());
        assertThat(collector.command()).containsExactly("taskset", "-c", "1", "/argus/collector/bin/argus-collector");
        assertThat(collector.env()).containsEntry("JAVA_HOME", "/jdk");
        assertThat(CollectorProcess.Launch.script(Path.of("/c"), Path.of("/jdk")).prefixed(Placement.shared().loadPrefix())
                .command()).containsExactly("/c");
    }
}
