package io.argus.cluster.kafka;

import io.argus.cluster.LoopbackPorts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

/**
 * One Kafka broker in KRaft mode (combined broker and controller, node 1) in a forked JVM, listening on
 * 127.0.0.1 with ports chosen free at start, its log directories under a given directory. {@link #stop()} and
 * {@link #kill()} end it; {@link #restart()} brings it back on the same ports and data, for outage tests.
 *
 * <pre>{@code
 * try (KafkaBroker kafka = KafkaBroker.start(KafkaInstall.pinned(), dir)) {
 *     kafka.createTopics(3, "argus-spans", "argus-calls");
 *     String bootstrap = kafka.bootstrapServers();
 * }
 * }</pre>
 */
public final class KafkaBroker implements AutoCloseable {
    static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    private final KafkaInstall install;
    private final Path dir;
    private final int brokerPort;
    private final int controllerPort;
    private Process process;

    private KafkaBroker(KafkaInstall install, Path dir, int brokerPort, int controllerPort) {
        this.install = install;
        this.dir = dir;
        this.brokerPort = brokerPort;
        this.controllerPort = controllerPort;
    }

    /**
     * Fetches the jars if needed, formats a new storage directory under {@code dir}, starts the broker and returns
     * once it answers.
     */
    public static KafkaBroker start(KafkaInstall install, Path dir) throws IOException, InterruptedException {
        install.ensure(System.out);
        Files.createDirectories(dir);
        List<Integer> ports = new ArrayList<>();
        KafkaBroker broker = new KafkaBroker(install, dir.toAbsolutePath(), LoopbackPorts.free(ports),
                LoopbackPorts.free(ports));
        Files.writeString(broker.config(), broker.serverProperties());
        broker.format();
        broker.launch();
        return broker;
    }

    /** {@code 127.0.0.1:<port>}, for {@code bootstrap.servers} and {@code --kafka-bootstrap}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + brokerPort;
    }

    /** The broker's output (stdout and stderr, appended across restarts). */
    public Path log() {
        return dir.resolve("broker.log");
    }

    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Creates these topics (replication factor 1) unless they exist. */
    public void createTopics(int partitions, String... topics) throws InterruptedException {
        List<NewTopic> create = new ArrayList<>();
        for (String t : topics) {
            create.add(new NewTopic(t, Optional.of(partitions), Optional.of((short) 1)));
        }
        try (Admin admin = admin()) {
            admin.createTopics(create).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.TopicExistsException)) {
                throw new IllegalStateException("creating topics " + String.join(", ", topics) + " failed", e);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("creating topics took more than 60 s", e);
        }
    }

    /** An admin client of this broker; the caller closes it. */
    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000));
    }

    /** Graceful stop (SIGTERM, then SIGKILL after 30 s). */
    public void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** SIGKILL: the broker dies at once, as in a crash. */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Starts the broker again on the same ports and data after {@link #stop()} or {@link #kill()}. */
    public void restart() throws IOException, InterruptedException {
        if (isRunning()) {
            throw new IllegalStateException("the broker is running");
        }
        launch();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private Path config() {
        return dir.resolve("server.properties");
    }

    private String serverProperties() {
        return String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=1",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "") ;
    }

    private List<String> java(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms128m", "-Xmx512m", "-XX:+UseG1GC", "-Djava.awt.headless=true",
                "-Dlog4j2.configurationFile=" + log4jConfig(),
                "-cp", install.lib() + "/*", mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private Path log4jConfig() {
        Path file = dir.resolve("log4j2.properties");
        if (!Files.exists(file)) {
            try {
                Files.writeString(file, String.join("\n",
                        "rootLogger.level=INFO",
                        "rootLogger.appenderRef.out.ref=out",
                        "appender.out.type=Console",
                        "appender.out.name=out",
                        "appender.out.layout.type=PatternLayout",
                        "appender.out.layout.pattern=%d{HH:mm:ss.SSS} %p %c{1} - %m%n",
                        "logger.kafka.name=kafka",
                        "logger.kafka.level=INFO",
                        "logger.apache.name=org.apache.kafka",
                        "logger.apache.level=WARN",
                        ""));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return file;
    }

    private void format() throws IOException, InterruptedException {
        Path out = dir.resolve("format.log");
        Process p = new ProcessBuilder(java("kafka.tools.StorageTool", "format", "--ignore-formatted",
                "--cluster-id", clusterId(), "--config", config().toString()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(2, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("formatting the Kafka storage took more than 2 minutes; see " + out);
        }
        if (p.exitValue() != 0) {
            throw new IOException("formatting the Kafka storage failed (exit " + p.exitValue() + "): "
                    + Files.readString(out));
        }
    }

    private void launch() throws IOException, InterruptedException {
        process = new ProcessBuilder(java("kafka.Kafka", config().toString()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile())).start();
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IOException("the Kafka broker exited with " + process.exitValue() + "; see " + log());
                }
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // not up yet
                }
                if (System.nanoTime() - deadline > 0) {
                    process.destroyForcibly();
                    throw new IOException("the Kafka broker did not answer within " + READY_TIMEOUT.toMinutes()
                            + " minutes; see " + log());
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * A new cluster id: 16 random bytes, URL-safe base64 without padding, as Kafka's own ids; never starting with
     * '-', which the storage tool's argument parser would take for an option (one id in 64 would).
     */
    private static String clusterId() {
        while (true) {
            UUID u = UUID.randomUUID();
            ByteBuffer b = ByteBuffer.allocate(16).putLong(u.getMostSignificantBits())
                    .putLong(u.getLeastSignificantBits());
            String id = Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
            if (!id.startsWith("-")) {
                return id;
            }
        }
    }
}
