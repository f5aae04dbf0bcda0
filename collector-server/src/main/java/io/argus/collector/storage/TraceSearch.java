package io.argus.collector.storage;

import java.util.List;

/**
 * Trace search. The root span (or, while no root is stored, the earliest span) stands for the trace: service,
 * route, duration and time range apply to it. Status, tags and edge apply to any span of the trace.
 *
 * @param service          root's service; {@code null} for all
 * @param route            root's route: its {@code http.route} tag, its name, or the last word of its name
 *                         ({@code /orders} matches {@code GET /orders}); {@code null} for all
 * @param status           which traces by outcome
 * @param minDurationNanos root lasted at least this long
 * @param maxDurationNanos root lasted at most this long; {@link Long#MAX_VALUE} for no bound
 * @param range            root started in it; {@code null} for any time
 * @param tags             every filter must be met (by any span each)
 * @param edge             one of the trace's client spans goes along this service map edge; {@code null} for any
 * @param sort             newest first or longest first
 * @param limit            most traces returned
 */
public record TraceSearch(String service, String route, Status status, long minDurationNanos,
                          long maxDurationNanos, TimeRange range, List<TagFilter> tags, Edge edge, Sort sort,
                          int limit) {

    public enum Status { ANY, ERROR, OK }

    public enum Sort { TIME, DURATION }

    /** A service map edge: {@code source} service to the node with id {@code target}. */
    public record Edge(String source, String target) {
    }

    public TraceSearch {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        if (minDurationNanos < 0 || maxDurationNanos < minDurationNanos) {
            throw new IllegalArgumentException("duration bounds must satisfy 0 <= min <= max");
        }
        tags = List.copyOf(tags);
    }
}
