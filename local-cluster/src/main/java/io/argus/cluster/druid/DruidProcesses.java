package io.argus.cluster.druid;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The JVMs of a Druid nano cluster and how each is launched: ZooKeeper, then coordinator-overlord, broker,
 * historical, middleManager (whose peons run the tasks) and router, heaps after Druid's nano-quickstart so the whole
 * cluster fits a 2-core machine. The overhead suite's Druid target and {@link DruidCluster} both start these.
 */
public final class DruidProcesses {

    /** Druid's names for its processes, in start order. */
    public static final List<String> SERVICES = List.of("coordinator", "broker", "historical", "middleManager", "router");
    /** The module flags Druid's launch scripts add on JDK 17; without them historicals fail to map segments. */
    public static final List<String> MODULE_FLAGS = List.of(
            "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=jdk.management/com.sun.management.internal=ALL-UNNAMED");
    /** Jetty's start-up line in every Druid process's log (and ZooKeeper's admin server's). */
    public static final Pattern STARTED = Pattern.compile("Server - Started @(\\d+)ms");
    public static final List<String> PEON_HEAP = List.of("-Xms256m", "-Xmx256m", "-XX:MaxDirectMemorySize=300m");

    private DruidProcesses() {
    }

    /** The name the agents and the reports give a Druid process. */
    public static String agentName(String druidService) {
        return druidService.equals("coordinator") ? "coordinator-overlord" : druidService;
    }

    public static List<String> heap(String service) {
        return switch (service) {
            case "coordinator" -> List.of("-Xms256m", "-Xmx256m");
            case "broker", "historical" -> List.of("-Xms512m", "-Xmx512m", "-XX:MaxDirectMemorySize=400m");
            case "middleManager" -> List.of("-Xms64m", "-Xmx64m");
            case "router" -> List.of("-Xms128m", "-Xmx128m");
            default -> throw new IllegalArgumentException(service);
        };
    }

    /** G1, UTC, UTF-8, the launch's temp folder, log4j for java.util.logging and {@link #MODULE_FLAGS}. */
    public static List<String> jvmCommon(DruidLayout layout) {
        List<String> o = new ArrayList<>(List.of("-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
                "-Duser.timezone=UTC", "-Dfile.encoding=UTF-8",
                "-Djava.io.tmpdir=" + layout.var().resolve("tmp"),
                "-Djava.util.logging.manager=org.apache.logging.log4j.jul.LogManager"));
        o.addAll(MODULE_FLAGS);
        return o;
    }

    /** The peons' JVM options: their heap and {@link #jvmCommon}. */
    public static List<String> peonJvm(DruidLayout layout) {
        List<String> o = new ArrayList<>(PEON_HEAP);
        o.addAll(jvmCommon(layout));
        return o;
    }

    /** ZooKeeper, from Druid's own jars, with its admin server's {@code ruok} as readiness. */
    public static DruidProcess zooKeeper(DruidLayout layout, DruidInstall install) {
        return new DruidProcess("zookeeper", false, jvm(layout, List.of("-Xms64m", "-Xmx128m")),
                layout.commonConf() + ":" + install.lib() + "/*",
                List.of("org.apache.zookeeper.server.ZooKeeperServerMain", layout.zooCfg().toString()),
                URI.create("http://127.0.0.1:" + layout.zkAdminPort() + "/commands/ruok"));
    }

    /** A Druid service ({@link #SERVICES}): {@code org.apache.druid.cli.Main server <service>}. */
    public static DruidProcess service(DruidLayout layout, DruidInstall install, String service) {
        String health = service.equals("historical") ? "/druid/historical/v1/readiness" : "/status/health";
        return new DruidProcess(agentName(service), true, jvm(layout, heap(service)),
                layout.confDir(service) + ":" + layout.commonConf() + ":" + install.lib() + "/*",
                List.of("org.apache.druid.cli.Main", "server", service),
                URI.create("http://127.0.0.1:" + layout.port(service) + health));
    }

    /** ZooKeeper and then every service, in start order. */
    public static List<DruidProcess> all(DruidLayout layout, DruidInstall install) {
        List<DruidProcess> all = new ArrayList<>();
        all.add(zooKeeper(layout, install));
        SERVICES.forEach(s -> all.add(service(layout, install, s)));
        return all;
    }

    private static List<String> jvm(DruidLayout layout, List<String> heap) {
        List<String> o = new ArrayList<>(heap);
        o.addAll(jvmCommon(layout));
        return o;
    }
}
