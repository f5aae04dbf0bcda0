package io.argus.collector;

import java.util.HashMap;
import java.util.Map;
import java.util.logging.Logger;

/**
 * WARN lines that a flood of bad clients cannot turn into a flood of log: at most one line per key every
 * interval; the lines left out meanwhile are counted and named in the next one.
 */
public final class RateLimitedLog {
    private final Logger log;
    private final long intervalNanos;
    private final Map<Object, long[]> last = new HashMap<>();

    public RateLimitedLog(Logger log, long intervalNanos) {
        this.log = log;
        this.intervalNanos = intervalNanos;
    }

    /** Logs {@code line} at WARNING unless a line for {@code key} went out less than the interval ago. */
    public void warn(Object key, String line) {
        long now = System.nanoTime();
        long suppressed;
        synchronized (last) {
            long[] state = last.computeIfAbsent(key, k -> new long[] {now - intervalNanos - 1, 0});
            if (now - state[0] < intervalNanos) {
                state[1]++;
                return;
            }
            suppressed = state[1];
            state[0] = now;
            state[1] = 0;
        }
        log.warning(line + (suppressed > 0 ? " (" + suppressed + " more since the last report)" : ""));
    }
}
