package io.argus.collector.storage;

import io.argus.collector.record.AgentEvent;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import java.time.Duration;

/**
 * Where the ingest side (agent connections and OTLP/HTTP) hands validated data: the embedded
 * {@link Storage}, or a publisher to a message bus when the collector is an ingest-only node. Thread-safe; no
 * method blocks.
 */
public interface IngestSink extends AutoCloseable {

    /**
     * Hands a validated batch on. Must not block: returns {@code false} when the sink's bounded queue is full, and
     * the caller then retries later (the ingest side pauses reading meanwhile).
     */
    boolean offerSpans(Source source, SpanBatch batch);

    /** Like {@link #offerSpans}: non-blocking, {@code false} when the queue is full. */
    boolean offerMetrics(Source source, MetricBatch batch);

    /** An agent connected, sent a heartbeat or disconnected. Best effort; the default ignores it. */
    default void agentEvent(AgentEvent event) {
    }

    /**
     * Whether the sink can hand data on now. While it cannot, the ingest side closes agent connections and refuses
     * new ones (agents fail over to another collector or buffer), and OTLP requests get 503. The default: always.
     */
    default boolean accepting() {
        return true;
    }

    /** Why {@link #accepting()} is false (for the log line of a refused connection); empty while accepting. */
    default String unavailableReason() {
        return "";
    }

    /**
     * Waits until everything offered before this call is written (and visible to queries, for a store) or handed
     * on.
     *
     * @return {@code false} if that did not happen within {@code timeout}
     */
    boolean flush(Duration timeout);

    /** Hands on what it can of what was accepted and releases its resources. Idempotent. */
    @Override
    void close();
}
