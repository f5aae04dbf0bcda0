package io.argus.collector.storage;

import java.util.List;
import java.util.Optional;

/** Span side of the storage, read and retention ({@link IngestSink#offerSpans} writes). Must be thread-safe. */
public interface SpanStore {

    /** Recent traces, newest root start first. */
    List<TraceSummary> traces(TraceQuery query);

    /** Every stored span of one trace, sorted by start; empty when no span of it is stored. */
    Optional<TraceDetail> trace(long traceIdHigh, long traceIdLow);

    /**
     * Deletes every span that started before {@code epochNanos} (retention). Runs beside ingest: it must not
     * stop the store from accepting or writing new batches meanwhile.
     *
     * @return the number of spans deleted
     */
    long deleteSpansBefore(long epochNanos);
}
