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

    private TestCollector(Collector collector) {
        this.collector = collector;
        this.client = new CollectorClient(collector.httpPort());
    }

    public static TestCollector start() {
        try {
            return start(Files.createTempDirectory("argus-test-collector"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static TestCollector start(Path dataDir) {
        return new TestCollector(Collector.start(CollectorConfig.builder()
                .ingestPort(0).httpPort(0).dataDir(dataDir).build()));
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
    }
}
