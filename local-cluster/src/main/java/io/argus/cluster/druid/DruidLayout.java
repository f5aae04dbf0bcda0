package io.argus.cluster.druid;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.cluster.LoopbackPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One launch's nano cluster on disk: the ports (all on 127.0.0.1, chosen free per launch), and the
 * {@code conf/} folders Druid reads from its class path ({@code conf/<service>:conf/_common}),
 * sized after Druid's nano-quickstart so the whole cluster fits a 2-core machine. Metadata lives
 * in Derby (served by the coordinator), segments in local deep storage, all under the launch's
 * work folder.
 */
public final class DruidLayout {

    static final int PEON_PORTS = 10;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path root;
    private final Path conf;
    private final Path var;
    private final int zkPort;
    private final int zkAdminPort;
    private final int derbyPort;
    private final int peonPortStart;
    private final Map<String, Integer> ports = new LinkedHashMap<>();

    public DruidLayout(Path workDir) throws IOException {
        this.root = workDir.toAbsolutePath().normalize();
        this.conf = root.resolve("conf");
        this.var = root.resolve("var");
        List<Integer> taken = new ArrayList<>();
        this.zkPort = LoopbackPorts.free(taken);
        this.zkAdminPort = LoopbackPorts.free(taken);
        this.derbyPort = LoopbackPorts.free(taken);
        for (String service : DruidProcesses.SERVICES) {
            ports.put(service, LoopbackPorts.free(taken));
        }
        this.peonPortStart = LoopbackPorts.freeRange(taken, PEON_PORTS);
    }

    /** The HTTP port of a Druid service (its name as in {@link DruidProcesses#SERVICES}). */
    public int port(String service) {
        return ports.get(service);
    }

    public int zkAdminPort() {
        return zkAdminPort;
    }

    /** The launch's work folder: {@code conf/} and {@code var/} (metadata, deep storage, logs) are under it. */
    public Path root() {
        return root;
    }

    /** The conf folder of a service as Druid names it ({@code coordinator} for coordinator-overlord). */
    public Path confDir(String service) {
        return conf.resolve(service);
    }

    /** {@code conf/_common}, first on every Druid class path; {@code conf/zk/zoo.cfg} is ZooKeeper's. */
    public Path commonConf() {
        return conf.resolve("_common");
    }

    public Path zooCfg() {
        return conf.resolve("zk/zoo.cfg");
    }

    /** {@code var/}: temp files, ZooKeeper, Derby, deep storage, task logs. */
    public Path var() {
        return var;
    }

    /** Writes the configuration without extensions, for two tasks at once. */
    public void write(Path java, List<String> peonJvmOptions) throws IOException {
        write(java, peonJvmOptions, var.resolve("extensions"), List.of(), 2);
    }

    /**
     * Writes the configuration.
     *
     * @param extensionsDir  {@code druid.extensions.directory}
     * @param loadList       the extensions every process loads from it
     * @param workerCapacity how many tasks (peons) the middleManager runs at once
     */
    public void write(Path java, List<String> peonJvmOptions, Path extensionsDir, List<String> loadList,
                      int workerCapacity) throws IOException {
        Files.createDirectories(var.resolve("tmp"));
        Files.createDirectories(var.resolve("zk"));
        write("_common/common.runtime.properties", common(extensionsDir, loadList));
        write("_common/log4j2.xml", LOG4J);
        write("zk/zoo.cfg", """
                tickTime=2000
                dataDir=%s
                clientPort=%d
                clientPortAddress=127.0.0.1
                admin.enableServer=true
                admin.serverAddress=127.0.0.1
                admin.serverPort=%d
                4lw.commands.whitelist=ruok
                """.formatted(var.resolve("zk"), zkPort, zkAdminPort));
        write("coordinator/runtime.properties", """
                druid.service=druid/coordinator
                druid.plaintextPort=%d
                druid.coordinator.startDelay=PT5S
                druid.coordinator.period=PT5S
                druid.manager.segments.pollDuration=PT5S
                druid.coordinator.asOverlord.enabled=true
                druid.coordinator.asOverlord.overlordService=druid/overlord
                druid.indexer.queue.startDelay=PT1S
                druid.indexer.storage.type=metadata
                """.formatted(port("coordinator")));
        String processing = """
                druid.server.http.numThreads=6
                druid.processing.buffer.sizeBytes=50MiB
                druid.processing.numMergeBuffers=2
                druid.processing.numThreads=1
                druid.processing.tmpDir=%s
                """.formatted(var.resolve("processing"));
        write("broker/runtime.properties", """
                druid.service=druid/broker
                druid.plaintextPort=%d
                druid.broker.http.numConnections=5
                druid.broker.http.maxQueuedBytes=5MiB
                druid.broker.cache.useCache=false
                druid.broker.cache.populateCache=false
                """.formatted(port("broker")) + processing);
        write("historical/runtime.properties", """
                druid.service=druid/historical
                druid.plaintextPort=%d
                druid.segmentCache.locations=[{"path":"%s","maxSize":"10g"}]
                druid.server.maxSize=10g
                druid.historical.cache.useCache=false
                druid.historical.cache.populateCache=false
                """.formatted(port("historical"), var.resolve("segment-cache")) + processing);
        write("middleManager/runtime.properties", """
                druid.service=druid/middleManager
                druid.plaintextPort=%d
                druid.worker.capacity=%d
                druid.worker.baseTaskDirs=[%s]
                druid.indexer.task.baseTaskDir=%s
                druid.indexer.runner.javaCommand=%s
                druid.indexer.runner.javaOptsArray=%s
                druid.indexer.runner.startPort=%d
                druid.indexer.runner.endPort=%d
                druid.indexer.fork.property.druid.processing.buffer.sizeBytes=50MiB
                druid.indexer.fork.property.druid.processing.numMergeBuffers=2
                druid.indexer.fork.property.druid.processing.numThreads=1
                """.formatted(port("middleManager"), workerCapacity,
                JSON.writeValueAsString(var.resolve("task").toString()),
                var.resolve("task"), java.toAbsolutePath(), JSON.writeValueAsString(peonJvmOptions),
                peonPortStart, peonPortStart + PEON_PORTS - 1));
        write("router/runtime.properties", """
                druid.service=druid/router
                druid.plaintextPort=%d
                druid.router.http.numConnections=25
                druid.router.http.readTimeout=PT5M
                druid.router.http.numMaxThreads=50
                druid.server.http.numThreads=50
                druid.router.defaultBrokerServiceName=druid/broker
                druid.router.coordinatorServiceName=druid/coordinator
                druid.router.managementProxy.enabled=true
                """.formatted(port("router")));
    }

    private String common(Path extensionsDir, List<String> loadList) throws IOException {
        return """
                druid.host=127.0.0.1
                druid.extensions.loadList=%s
                druid.extensions.directory=%s
                druid.extensions.hadoopDependenciesDir=%s
                druid.startup.logging.logProperties=false
                druid.zk.service.host=127.0.0.1:%d
                druid.zk.paths.base=/druid
                druid.metadata.storage.type=derby
                druid.metadata.storage.connector.connectURI=jdbc:derby://127.0.0.1:%d/%s;create=true
                druid.metadata.storage.connector.host=127.0.0.1
                druid.metadata.storage.connector.port=%d
                druid.storage.type=local
                druid.storage.storageDirectory=%s
                druid.indexer.logs.type=file
                druid.indexer.logs.directory=%s
                druid.selectors.indexing.serviceName=druid/overlord
                druid.selectors.coordinator.serviceName=druid/coordinator
                druid.monitoring.monitors=[]
                druid.emitter=noop
                druid.indexing.doubleStorage=double
                druid.sql.enable=true
                druid.lookup.enableLookupSyncOnStartup=false
                """.formatted(JSON.writeValueAsString(loadList), extensionsDir, var.resolve("hadoop-dependencies"),
                zkPort, derbyPort,
                var.resolve("metadata.db"), derbyPort, var.resolve("segments"), var.resolve("indexing-logs"));
    }

    private void write(String relative, String text) throws IOException {
        Path file = conf.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Druid's console pattern; Jetty's 'Server - Started @Nms' line is what start-up is read from. */
    static final String LOG4J = """
            <?xml version="1.0" encoding="UTF-8" ?>
            <Configuration status="WARN">
              <Appenders>
                <Console name="Console" target="SYSTEM_OUT">
                  <PatternLayout pattern="%d{ISO8601} %p [%t] %c - %m%n"/>
                </Console>
              </Appenders>
              <Loggers>
                <Root level="info"><AppenderRef ref="Console"/></Root>
                <Logger name="org.apache.zookeeper" level="warn" additivity="false"><AppenderRef ref="Console"/></Logger>
                <Logger name="org.eclipse.jetty.server.Server" level="info" additivity="false"><AppenderRef ref="Console"/></Logger>
              </Loggers>
            </Configuration>
            """;
}
