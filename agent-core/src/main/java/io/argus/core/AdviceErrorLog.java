package io.argus.core;

import io.argus.bridge.AdviceErrors;

/** Counts what advice let escape, and logs the first few and then every thousandth. */
final class AdviceErrorLog implements AdviceErrors.Sink {

    private static final int LOGGED_ADVICE_ERRORS = 10;

    private final AgentCounters counters;

    AdviceErrorLog(AgentCounters counters) {
        this.counters = counters;
    }

    @Override
    public void report(Throwable error) {
        long n = counters.adviceErrors.incrementAndGet();
        if (n <= LOGGED_ADVICE_ERRORS || n % 1000 == 0) {
            AgentLog.warn("probe error #" + n + " suppressed; the application was not affected", error);
        }
    }
}
