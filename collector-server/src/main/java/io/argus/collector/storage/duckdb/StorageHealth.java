package io.argus.collector.storage.duckdb;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Whether the writer can store: set when a write cycle fails, cleared by the first cycle that commits again. The
 * writer thread changes it; ingest reads it on every new connection and request (one volatile read), the API and
 * {@code /metrics} show it.
 */
final class StorageHealth {
    private volatile String failure;
    private volatile long failingSinceMs;
    private final Counter retries;

    StorageHealth(MeterRegistry registry) {
        Gauge.builder("argus.collector.storage.failing", this, h -> h.failing() ? 1 : 0)
                .description("1 while storage writes fail (agents are refused, OTLP gets 503), else 0")
                .register(registry);
        this.retries = Counter.builder("argus.collector.storage.retries")
                .description("Attempts to write a failed write cycle again").register(registry);
    }

    boolean failing() {
        return failure != null;
    }

    /** Why storing fails, for log lines and the API; {@code null} while healthy. */
    String failure() {
        return failure;
    }

    /** Since when storing fails (epoch ms); 0 while healthy. */
    long failingSinceMs() {
        return failure == null ? 0 : failingSinceMs;
    }

    void failed(String reason) {
        if (failure == null) {
            failingSinceMs = System.currentTimeMillis();
        }
        failure = reason;
    }

    void retried() {
        retries.increment();
    }

    void recovered() {
        failure = null;
    }
}
