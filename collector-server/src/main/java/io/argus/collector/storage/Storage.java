package io.argus.collector.storage;

/**
 * The collector's embedded storage engine, {@link io.argus.collector.storage.duckdb.DuckDbStorage}: it takes what
 * ingest offers ({@link IngestSink}), answers the API ({@link QueryStore}) and keeps agent state
 * ({@link AgentStore}) in one place.
 */
public interface Storage extends IngestSink, QueryStore, AgentStore {

    /** Rows accepted but not yet written. */
    long pendingRows();

    /** Writes out everything accepted so far and releases the engine. Idempotent. */
    @Override
    void close();
}
