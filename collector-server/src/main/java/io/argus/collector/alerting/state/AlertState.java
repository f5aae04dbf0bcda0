package io.argus.collector.alerting.state;

/** Where a rule's alert stands. */
public enum AlertState {
    /** The condition does not hold (and has not fired since the rule was read). */
    INACTIVE,
    /** The condition holds, for less than the rule's {@code for}. */
    PENDING,
    /** The condition has held for the rule's {@code for}: notifications went out. */
    FIRING,
    /** It fired, and the condition no longer holds: notifications went out again. */
    RESOLVED;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
