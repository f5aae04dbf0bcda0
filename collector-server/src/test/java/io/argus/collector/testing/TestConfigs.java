package io.argus.collector.testing;

import io.argus.collector.CollectorConfig;
import java.time.Duration;

/** Collector settings for tests: free ports, no OTLP receiver, no retention (test data has old timestamps). */
public final class TestConfigs {
    private TestConfigs() {
    }

    /** Ingest and HTTP on free ports, OTLP off, everything kept. */
    public static CollectorConfig.Builder ephemeral() {
        return CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(0)
                .retentionSpans(Duration.ZERO).retentionMetrics(Duration.ZERO);
    }
}
