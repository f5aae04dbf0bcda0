package io.argus.collector.ingest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The times the collector stores: from the retention age in the past (when retention is on) to
 * {@code --max-future-skew} ahead of its own clock. A span that starts in 2262 would otherwise top every trace list
 * for ever, and one older than retention would be deleted at the next pass; both are dropped one by one, never their
 * whole frame or request, and counted in {@code argus.collector.out.of.window{data}}. Shared by agent ingest and
 * OTLP; thread-safe.
 */
public final class ClockWindow {
    private final Clock clock;
    private final long futureNanos;
    /** 0: no bound in the past. */
    private final long spanAgeNanos;
    private final long metricAgeMillis;
    private final Counter spans;
    private final Counter metrics;

    /** {@code spanAge}, {@code metricAge}: {@link Duration#ZERO} for no bound in the past. */
    public ClockWindow(Clock clock, Duration future, Duration spanAge, Duration metricAge, MeterRegistry registry) {
        this.clock = clock;
        this.futureNanos = future.toNanos();
        this.spanAgeNanos = spanAge.toNanos();
        this.metricAgeMillis = metricAge.toMillis();
        this.spans = counter("spans", registry);
        this.metrics = counter("metrics", registry);
    }

    private static Counter counter(String data, MeterRegistry registry) {
        return Counter.builder("argus.collector.out.of.window")
                .description("Spans and metric batches dropped because their time lies too far ahead of the"
                        + " collector's clock (--max-future-skew) or is older than retention")
                .tag("data", data).register(registry);
    }

    /** The start times stored now, read once for a whole batch. */
    public record SpanBounds(long fromNanos, long toNanos) {
        public boolean contains(long startEpochNanos) {
            return startEpochNanos >= fromNanos && startEpochNanos <= toNanos;
        }
    }

    public SpanBounds spanBounds() {
        long nowNanos = TimeUnit.MILLISECONDS.toNanos(clock.millis());
        return new SpanBounds(spanAgeNanos > 0 ? nowNanos - spanAgeNanos : Long.MIN_VALUE,
                nowNanos > Long.MAX_VALUE - futureNanos ? Long.MAX_VALUE : nowNanos + futureNanos);
    }

    /** Why a span starting at {@code startEpochNanos} is not stored, or {@code null} when it is within the window. */
    public String spanOutside(long startEpochNanos) {
        long nowNanos = TimeUnit.MILLISECONDS.toNanos(clock.millis());
        if (startEpochNanos - nowNanos > futureNanos) {
            return "starts " + human(startEpochNanos - nowNanos) + " in the future of the collector's clock (at most "
                    + human(futureNanos) + ", --max-future-skew)";
        }
        if (spanAgeNanos > 0 && nowNanos - startEpochNanos > spanAgeNanos) {
            return "started " + human(nowNanos - startEpochNanos) + " ago, before the span retention of "
                    + human(spanAgeNanos);
        }
        return null;
    }

    /** Why a metric batch stamped {@code epochMs} is not stored, or {@code null}. */
    public String metricsOutside(long epochMs) {
        long now = clock.millis();
        if (epochMs - now > TimeUnit.NANOSECONDS.toMillis(futureNanos)) {
            return "stamped " + human(TimeUnit.MILLISECONDS.toNanos(epochMs - now)) + " in the future";
        }
        if (metricAgeMillis > 0 && now - epochMs > metricAgeMillis) {
            return "stamped before the metric retention";
        }
        return null;
    }

    public void countSpans(int n) {
        spans.increment(n);
    }

    public void countMetricBatch() {
        metrics.increment();
    }

    private static String human(long nanos) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(nanos);
        if (seconds < 120) {
            return seconds + " s";
        }
        if (seconds < 2 * 3600) {
            return seconds / 60 + " min";
        }
        if (seconds < 2 * 86400) {
            return seconds / 3600 + " h";
        }
        if (seconds < 2 * 365 * 86400L) {
            return seconds / 86400 + " days";
        }
        return seconds / (365 * 86400L) + " years";
    }
}
