package io.argus.testing;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A real collector, in this JVM, on ephemeral loopback ports with a throw-away data folder. */
public final class TestCollector implements AutoCloseable {

    private final Collector collector;
    private final CollectorClient client;
    /** The data folder made for this collector alone, deleted when it stops; null when the test chose one. */
    private Path ownDataDir;

    private TestCollector(Collector collector) {
        this.collector = collector;
        this.client = new CollectorClient(collector.httpPort());
    }

    public static TestCollector start() {
        Path dataDir;
        try {
            dataDir = Files.createTempDirectory("argus-test-collector");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TestCollector collector = start(dataDir);
        collector.ownDataDir = dataDir;
        return collector;
    }

    public static TestCollector start(Path dataDir) {
        return start(dataDir, 0);
    }

    /** On a chosen ingest port, e.g. to bring a collector back where agents expect it. */
    public static TestCollector start(Path dataDir, int ingestPort) {
        return new TestCollector(Collector.start(CollectorConfig.builder()
                .ingestPort(ingestPort).httpPort(0).otlpHttpPort(0).dataDir(dataDir).build()));
    }

    /** A loopback port that was free a moment ago. */
    public static int freePort() {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int ingestPort() {
        return collector.ingestPort();
    }

    public int httpPort() {
        return collector.httpPort();
    }

    public CollectorClient client() {
        return client;
    }

    @Override
    public void close() {
        collector.close();
        TempFolders.delete(ownDataDir);
    }
}
