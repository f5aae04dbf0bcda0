package io.argus.cluster.druid;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.cluster.PinnedVersions;
import io.argus.cluster.fetch.MavenFetch;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster's JVMs as the benchmarks and DruidCluster launch them, without starting Druid. */
class DruidProcessesTest {

    @TempDir
    Path dir;

    @Test
    void zooKeeperFirstThenTheFiveServicesEachOnItsOwnLoopbackPort() throws Exception {
        DruidLayout layout = new DruidLayout(dir.resolve("work"));
        DruidInstall install = new DruidInstall(dir.resolve("druid"), "33.0.0");
        List<DruidProcess> all = DruidProcesses.all(layout, install);
        assertThat(all).extracting(DruidProcess::name).containsExactly("zookeeper", "coordinator-overlord", "broker",
                "historical", "middleManager", "router");
        assertThat(all).extracting(DruidProcess::druid).containsExactly(false, true, true, true, true, true);
        assertThat(all.get(0).mainAndArgs()).containsExactly("org.apache.zookeeper.server.ZooKeeperServerMain",
                layout.zooCfg().toString());
        assertThat(all.get(0).readiness().getPath()).isEqualTo("/commands/ruok");
        assertThat(all.get(3).readiness().getPath()).isEqualTo("/druid/historical/v1/readiness");
        for (DruidProcess p : all) {
            assertThat(p.readiness().getHost()).isEqualTo("127.0.0.1");
            assertThat(p.jvmOptions()).containsAll(DruidProcesses.MODULE_FLAGS);
            assertThat(p.classPath()).endsWith(install.lib() + "/*");
            assertThat(p.command("java")).startsWith("java").contains("-cp");
        }
        assertThat(all).extracting(p -> p.readiness().getPort()).doesNotHaveDuplicates();
    }

    @Test
    void druidIsFetchedWithoutSigarWhichIsNotOnCentral() {
        DruidInstall install = new DruidInstall(dir, "33.0.0", List.of("druid-datasketches"));
        String pom = MavenFetch.pom(List.of(install.artifact("org.apache.druid", "druid-services")));
        assertThat(pom).contains("<artifactId>druid-services</artifactId>", "<version>33.0.0</version>",
                "<groupId>org.hyperic</groupId><artifactId>sigar</artifactId>");
        assertThat(install.ready()).isFalse();
        assertThat(install.extensionsDir()).isEqualTo(dir.resolve("extensions"));
    }

    @Test
    void theBuildWritesThePinnedVersions() {
        assertThat(PinnedVersions.druid()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(PinnedVersions.kafka()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(PinnedVersions.dependencyPlugin()).matches("\\d+\\.\\d+\\.\\d+");
    }
}
