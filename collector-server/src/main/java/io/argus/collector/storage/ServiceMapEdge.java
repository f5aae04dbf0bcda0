package io.argus.collector.storage;

/**
 * Calls from one service to a node, from the traced client spans of the range (so counts follow the
 * sampling rate; the RED series are the exact ones).
 *
 * @param source      the calling service
 * @param target      the called node's id
 * @param calls       client spans
 * @param errors      of which ended in error
 * @param ratePerSec  {@code calls} over the range's length
 * @param errorRate   {@code errors / calls}
 * @param p95Ms       95th percentile of the client spans' durations
 */
public record ServiceMapEdge(String source, String target, long calls, long errors, double ratePerSec,
                             double errorRate, double p95Ms) {
}
