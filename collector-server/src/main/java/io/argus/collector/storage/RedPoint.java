package io.argus.collector.storage;

/**
 * One step of a RED series. The percentiles are {@code null} where the step saw no call.
 *
 * @param tsMs           start of the step
 * @param requests       calls that ended in the step
 * @param errors         of which failed
 * @param requestsPerSec {@code requests} over the step's length
 * @param errorRate      {@code errors / requests}, 0 without calls
 */
public record RedPoint(long tsMs, long requests, long errors, double requestsPerSec, double errorRate, Double p50Ms,
                       Double p95Ms, Double p99Ms) {
}
