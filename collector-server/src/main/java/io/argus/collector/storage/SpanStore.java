package io.argus.collector.storage;

import java.util.List;
import java.util.Optional;

/** Span side of the storage, read and retention ({@link IngestSink#offerSpans} writes). Must be thread-safe. */
public interface SpanStore {

    /** Recent traces, newest root start first. */
    List<TraceSummary> traces(TraceQuery query);

    /** Traces matching every filter of {@code search}, newest or longest first. */
    List<TraceSearchHit> searchTraces(TraceSearch search);

    /**
     * Who called whom in {@code range}: a client span whose server-side child span is stored links two
     * services; one without such a child links its service to the database ({@code db.system} tag) or the
     * host ({@code peer} tag, or the host of {@code http.url}) it called.
     */
    ServiceMap serviceMap(TimeRange range);

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
