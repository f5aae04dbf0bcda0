package io.argus.collector.alerting.state;

import io.argus.collector.alerting.rules.AlertRule;

/**
 * A change of an alert's state: an entry of the history, and (when it fires or resolves) what notifications say.
 *
 * @param atMs        when the evaluation that saw the change ran
 * @param rule        the rule as it read then
 * @param dedupKey    see {@link DedupKey}
 * @param from        state before
 * @param to          state after
 * @param value       the signal's value at that evaluation; {@code NaN} without data
 * @param activeSinceMs when the condition started to hold (pending, firing and resolved events)
 * @param windowFromMs start of the data the evaluation read
 * @param windowToMs   end of the data the evaluation read
 * @param reason       for a resolution that is not the condition clearing (rule removed or changed); else {@code null}
 */
public record AlertEvent(long atMs, AlertRule rule, String dedupKey, AlertState from, AlertState to, double value,
                         long activeSinceMs, long windowFromMs, long windowToMs, String reason) {

    /** Whether channels are told: firing and resolved. */
    public boolean notifies() {
        return to == AlertState.FIRING || to == AlertState.RESOLVED;
    }
}
