package io.argus.fleet.kafka;

import io.argus.collector.CollectorMain;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** An ingest-only collector ({@code argus-collector --storage kafka}) in its own JVM, so that it can be killed. */
final class IngestCollectorProcess implements AutoCloseable {
    final int ingestPort;
    final Path log;
    private final Process process;

    private IngestCollectorProcess(int ingestPort, Path log, Process process) {
        this.ingestPort = ingestPort;
        this.log = log;
        this.process = process;
    }

    static IngestCollectorProcess start(String name, String bootstrap, String topicPrefix)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path log = Path.of("target", "app-logs", name + ".log");
        Files.createDirectories(log.getParent());
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), CollectorMain.class.getName(),
                "--storage", "kafka", "--kafka-bootstrap", bootstrap, "--kafka-topic-prefix", topicPrefix,
                "--kafka-create-topics", "3", "--ingest-port", String.valueOf(port), "--http-port", "0",
                "--otlp-http-port", "0", "--otlp-grpc-port", "0"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        IngestCollectorProcess c = new IngestCollectorProcess(port, log, p);
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!Files.readString(log).contains("Argus collector started")) {
            if (!p.isAlive() || System.nanoTime() - deadline > 0) {
                p.destroyForcibly();
                throw new IllegalStateException(name + " did not start:\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
        return c;
    }

    /** The {@code /metrics} port is not needed: the collector's own output tells what happened. */
    String output() throws IOException {
        return Files.readString(log);
    }

    /** SIGKILL: no shutdown hook, no flush. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
