package io.argus.perf.load.druid;

import io.argus.cluster.druid.DruidInstall;
import io.argus.cluster.druid.DruidProcesses;
import io.argus.perf.load.target.LaunchPlan;
import io.argus.perf.load.target.ProcessSpec;
import io.argus.perf.load.target.TargetEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cluster's plan and configuration, without starting Druid (that is the --target druid run's job). */
class DruidTargetTest {

    @TempDir
    Path dir;

    private LaunchPlan plan() throws Exception {
        return plan("sql");
    }

    private LaunchPlan plan(String endpoint) throws Exception {
        DruidTarget target = new DruidTarget(new DruidInstall(dir.resolve("druid"), "33.0.0"), 20_000, endpoint,
                System.out);
        TargetEnv env = new TargetEnv(Path.of("/usr/bin/java"), dir.resolve("work"),
                service -> List.of("-javaagent:/x/argus-agent.jar", "-Dargus.service.name=" + service),
                List.of("-Dextra=1"), true);
        return target.plan(env);
    }

    @Test
    void startsZooKeeperThenTheFiveDruidProcessesWithTheAgentOnEveryDruidProcess() throws Exception {
        LaunchPlan plan = plan();
        assertThat(plan.processes()).extracting(ProcessSpec::service).containsExactly("zookeeper",
                "coordinator-overlord", "broker", "historical", "middleManager", "router");
        assertThat(plan.processes()).extracting(ProcessSpec::instrumented)
                .containsExactly(false, true, true, true, true, true);
        for (ProcessSpec p : plan.processes().subList(1, 6)) {
            assertThat(p.jvmOptions()).containsAll(DruidProcesses.MODULE_FLAGS).contains("-Duser.timezone=UTC");
            assertThat(p.mainAndArgs()).startsWith("org.apache.druid.cli.Main", "server");
            assertThat(p.readiness().uri().getHost()).isEqualTo("127.0.0.1");
        }
        assertThat(plan.loadRequest().uri().getPath()).isEqualTo("/druid/v2/sql");
        assertThat(plan.loadRequest().bodyAt(0)).contains("MILLIS_TO_TIMESTAMP(" + WikipediaData.START_MILLIS + ")");
        assertThat(plan.loadRequest().bodyAt(5)).contains("MILLIS_TO_TIMESTAMP(" + (WikipediaData.START_MILLIS + 5) + ")");
    }

    @Test
    void theHealthEndpointLoadsTheCoordinatorAndExpectsItsOwnRootSpan() throws Exception {
        LaunchPlan plan = plan("health");
        int coordinatorPort = plan.processes().get(1).readiness().uri().getPort();
        assertThat(plan.loadRequest().uri().getPath()).isEqualTo("/status/health");
        assertThat(plan.loadRequest().uri().getPort()).isEqualTo(coordinatorPort);
        DruidTarget target = new DruidTarget(new DruidInstall(dir.resolve("druid"), "33.0.0"), 1, "health", System.out);
        assertThat(target.tracedServices()).containsExactly("coordinator-overlord");
        assertThat(target.tracedRootName()).isEqualTo("/status/health");
        assertThatThrownBy(() -> new DruidTarget(new DruidInstall(dir.resolve("druid"), "33.0.0"), 1, "call",
                System.out)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sql, health");
    }

    @Test
    void peonsGetTheScenarioAgentAndEveryPortIsDistinctAndLoopback() throws Exception {
        LaunchPlan plan = plan();
        Path conf = dir.resolve("work/conf");
        Properties mm = load(conf.resolve("middleManager/runtime.properties"));
        assertThat(mm.getProperty("druid.indexer.runner.javaOptsArray"))
                .contains("\"-javaagent:/x/argus-agent.jar\"", "\"-Dargus.service.name=peon\"", "\"-Dextra=1\"",
                        "\"--add-opens=java.base/java.lang=ALL-UNNAMED\"");
        assertThat(mm.getProperty("druid.indexer.runner.javaCommand")).isEqualTo("/usr/bin/java");
        Properties common = load(conf.resolve("_common/common.runtime.properties"));
        assertThat(common.getProperty("druid.host")).isEqualTo("127.0.0.1");
        assertThat(common.getProperty("druid.metadata.storage.type")).isEqualTo("derby");
        assertThat(common.getProperty("druid.storage.type")).isEqualTo("local");
        assertThat(Files.readString(conf.resolve("zk/zoo.cfg"))).contains("clientPortAddress=127.0.0.1",
                "admin.serverAddress=127.0.0.1");
        List<Integer> ports = plan.processes().stream().map(p -> p.readiness().uri().getPort()).toList();
        assertThat(ports).doesNotHaveDuplicates();
    }

    @Test
    void theDataIsDeterministicAndHasTheSeedColumns() throws Exception {
        Path a = dir.resolve("a/wikipedia.json");
        Path b = dir.resolve("b/wikipedia.json");
        WikipediaData.write(a, 20_000, 42);
        WikipediaData.write(b, 20_000, 42);
        assertThat(Files.readAllBytes(a)).isEqualTo(Files.readAllBytes(b));
        List<String> lines = Files.readAllLines(a);
        assertThat(lines).hasSize(20_000);
        assertThat(lines.get(0)).contains("\"__time\":" + WikipediaData.START_MILLIS, "\"page\"", "\"user\"",
                "\"channel\"", "\"namespace\"", "\"added\"", "\"deleted\"", "\"delta\"");
        assertThat(WikipediaData.ingestionTask("wikipedia", dir, "wikipedia.json"))
                .contains("\"type\":\"index_parallel\"", "\"dataSource\":\"wikipedia\"", "\"format\":\"millis\"");
    }

    private static Properties load(Path file) throws Exception {
        Properties p = new Properties();
        try (var in = Files.newInputStream(file)) {
            p.load(in);
        }
        return p;
    }
}
