package io.argus.collector.storage;

/**
 * What the HTTP API reads: spans, call metrics and JVM gauges. The embedded {@link Storage} is one; a query-only
 * backend over a distributed store is another.
 */
public interface QueryStore extends SpanStore, MetricStore, AutoCloseable {

    /** Releases the store. Idempotent. */
    @Override
    void close();
}
