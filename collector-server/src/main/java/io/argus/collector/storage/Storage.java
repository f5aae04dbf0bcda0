package io.argus.collector.storage;

import java.time.Duration;

/**
 * The collector's storage engine. The default is {@link io.argus.collector.storage.duckdb.DuckDbStorage}
 * (embedded, single file); a distributed engine can replace it by implementing this interface.
 */
public interface Storage extends SpanStore, MetricStore, AgentStore, AutoCloseable {

    /**
     * Waits until everything offered before this call is written and visible to queries.
     *
     * @return {@code false} if that did not happen within {@code timeout}
     */
    boolean flush(Duration timeout);

    /** Rows accepted but not yet written. */
    long pendingRows();

    /** Writes out everything accepted so far and releases the engine. Idempotent. */
    @Override
    void close();
}
