package io.argus.collector.storage;

/**
 * Filter for the recent-traces list.
 *
 * @param service        only traces whose root span belongs to this service; {@code null} for all
 * @param minDurationNanos only traces whose root lasted at least this long; 0 for all
 * @param limit          most traces returned (newest root start first)
 */
public record TraceQuery(String service, long minDurationNanos, int limit) {
    public TraceQuery {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        if (minDurationNanos < 0) {
            throw new IllegalArgumentException("minDurationNanos must not be negative");
        }
    }
}
