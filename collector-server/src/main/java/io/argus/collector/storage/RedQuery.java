package io.argus.collector.storage;

/**
 * A rate/errors/duration time series over call metric cells.
 *
 * @param service the service whose calls are counted
 * @param kind    {@code "server"} (requests it answered), {@code "client"} or {@code "db"}
 * @param method  only cells of this method (e.g. {@code GET}); {@code null} for all
 * @param route   only cells of this target (a server route such as {@code /orders/{id}}, a client's
 *                {@code host:port}, a database); {@code null} for the whole service
 * @param range   the time covered
 * @param stepMs  width of one point; points start at the range's start and every {@code stepMs} after it (the API
 *                widens its ranges to whole epoch-aligned steps; the alert evaluator asks one step as long as its window)
 */
public record RedQuery(String service, String kind, String method, String route, TimeRange range, long stepMs) {
    public RedQuery {
        if (service == null || kind == null || range == null) {
            throw new IllegalArgumentException("service, kind and range are required");
        }
        if (stepMs < 1) {
            throw new IllegalArgumentException("step must be positive");
        }
    }
}
