package io.argus.collector.alerting.eval;

/**
 * A signal's value over the window an evaluation read.
 *
 * @param value    in the signal's unit; {@code NaN} when the window holds no data to judge (no calls, no agent)
 * @param fromMs   start of the data read
 * @param toMs     end of the data read
 */
public record Reading(double value, long fromMs, long toMs) {
}
