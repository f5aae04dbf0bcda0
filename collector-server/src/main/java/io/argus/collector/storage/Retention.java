package io.argus.collector.storage;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One retention pass: deletes spans that started more than {@code spansAge} ago and metric rows older than
 * {@code metricsAge}, through the storage interface. An age of zero keeps that kind of data. The collector
 * runs it on its own thread, once at start and then periodically; ingest goes on meanwhile. A failed pass
 * is logged and counted, and the next one tries again.
 */
public final class Retention implements Runnable {
    private static final Logger LOG = Logger.getLogger(Retention.class.getName());

    private final QueryStore storage;
    private final Clock clock;
    private final Duration spansAge;
    private final Duration metricsAge;
    private final Counter spansDeleted;
    private final Counter metricRowsDeleted;
    private final Counter failures;
    private final Timer passes;

    public Retention(QueryStore storage, Clock clock, Duration spansAge, Duration metricsAge, MeterRegistry registry) {
        this.storage = storage;
        this.clock = clock;
        this.spansAge = spansAge;
        this.metricsAge = metricsAge;
        this.spansDeleted = Counter.builder("argus.collector.retention.deleted").tag("data", "spans")
                .description("Rows deleted because they were older than the retention age").register(registry);
        this.metricRowsDeleted = Counter.builder("argus.collector.retention.deleted").tag("data", "metrics")
                .description("Rows deleted because they were older than the retention age").register(registry);
        this.failures = Counter.builder("argus.collector.retention.errors")
                .description("Retention passes that failed").register(registry);
        this.passes = Timer.builder("argus.collector.retention.pass")
                .description("Time of one retention pass").register(registry);
    }

    /** True when neither kind of data is ever deleted, so that nothing needs scheduling. */
    public boolean keepsEverything() {
        return spansAge.isZero() && metricsAge.isZero();
    }

    @Override
    public void run() {
        long start = System.nanoTime();
        try {
            long nowMs = clock.millis();
            long spans = 0;
            long metrics = 0;
            if (!spansAge.isZero()) {
                long cutoffMs = nowMs - spansAge.toMillis();
                spans = storage.deleteSpansBefore(Math.multiplyExact(cutoffMs, 1_000_000L));
                spansDeleted.increment(spans);
            }
            if (!metricsAge.isZero()) {
                metrics = storage.deleteMetricsBefore(nowMs - metricsAge.toMillis());
                metricRowsDeleted.increment(metrics);
            }
            if (spans > 0 || metrics > 0) {
                LOG.info("retention: deleted " + spans + " span(s) older than " + spansAge + " and " + metrics
                        + " metric row(s) older than " + metricsAge);
            }
        } catch (RuntimeException e) {
            failures.increment();
            LOG.log(Level.WARNING, "retention pass failed; the next one tries again: " + e.getMessage(), e);
        } finally {
            passes.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }
}
