package io.argus.collector.storage;

import io.argus.collector.storage.AgentEvent;
import io.argus.protocol.MetricBatch;
import io.argus.protocol.SpanBatch;
import java.time.Duration;

/**
 * Where the ingest side (agent connections and OTLP/HTTP) hands validated data: the embedded
 * {@link Storage}, or a publisher to a message bus when the collector is an ingest-only node. Thread-safe; no
 * method blocks.
 */
public interface IngestSink extends AutoCloseable {

    /** For a batch whose hand-off nobody waits for. */
    Runnable NO_CALLBACK = () -> { };

    /** {@link #offerSpans(Source, SpanBatch, Runnable)} with nobody waiting for the hand-off. */
    default boolean offerSpans(Source source, SpanBatch batch) {
        return offerSpans(source, batch, NO_CALLBACK);
    }

    /**
     * Hands a validated batch on. Must not block: returns {@code false} when the sink's bounded queue is full, and
     * the caller then retries later (the ingest side pauses reading meanwhile).
     *
     * <p>Once the batch is accepted, {@code handedOn} runs (on any thread, once) when its content is durable: in the
     * commit that holds it, or acknowledged by the message bus for every record. A batch that fails for good (a
     * failed write, a record the bus refuses) runs it too, once the loss is counted: sending it again would fail the
     * same way. It never runs for a batch the sink still holds when it stops.
     */
    boolean offerSpans(Source source, SpanBatch batch, Runnable handedOn);

    /** {@link #offerMetrics(Source, MetricBatch, Runnable)} with nobody waiting for the hand-off. */
    default boolean offerMetrics(Source source, MetricBatch batch) {
        return offerMetrics(source, batch, NO_CALLBACK);
    }

    /** Like {@link #offerSpans(Source, SpanBatch, Runnable)}: non-blocking, {@code false} when the queue is full. */
    boolean offerMetrics(Source source, MetricBatch batch, Runnable handedOn);

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

    /** Since when {@link #accepting()} is false, in epoch milliseconds; 0 while accepting or unknown. */
    default long unavailableSinceMs() {
        return 0;
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
