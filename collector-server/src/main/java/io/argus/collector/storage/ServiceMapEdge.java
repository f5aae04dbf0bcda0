package io.argus.collector.storage;

/**
 * Calls from one service to a node, from the traced client spans of the range (so counts follow the
 * sampling rate; the RED series are the exact ones); or messages from a service to a topic (its producer spans), and
 * from a topic to a service (the consumer spans of the messages it processed).
 *
 * @param source      the calling service, or a topic
 * @param target      the called node's id
 * @param calls       client spans
 * @param errors      of which ended in error
 * @param ratePerSec  {@code calls} over the range's length
 * @param errorRate   {@code errors / calls}
 * @param p95Ms       95th percentile of the client spans' durations
 */
public record ServiceMapEdge(String source, String target, long calls, long errors, double ratePerSec,
                             double errorRate, double p95Ms) {

    /** The edge of {@code calls} client spans over {@code rangeSeconds}; rates rounded as the API shows them. */
    public static ServiceMapEdge of(String source, String target, long calls, long errors, double rangeSeconds,
                                    double p95Nanos) {
        return new ServiceMapEdge(source, target, calls, errors, Math.round(calls / rangeSeconds * 1000) / 1000.0,
                Math.round(10_000.0 * errors / calls) / 10_000.0, Math.round(p95Nanos / 1_000.0) / 1_000.0);
    }
}
