package io.argus.collector.storage;

/** A half-open interval of wall-clock time, {@code [fromMs, toMs)} in epoch milliseconds. */
public record TimeRange(long fromMs, long toMs) {
    public TimeRange {
        if (fromMs >= toMs) {
            throw new IllegalArgumentException("time range must end after it starts: from " + fromMs + ", to " + toMs);
        }
    }

    public long durationMs() {
        return toMs - fromMs;
    }

    public long fromNanos() {
        return Math.multiplyExact(fromMs, 1_000_000L);
    }

    public long toNanos() {
        return Math.multiplyExact(toMs, 1_000_000L);
    }
}
