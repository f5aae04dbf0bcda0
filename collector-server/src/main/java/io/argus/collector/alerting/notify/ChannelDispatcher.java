package io.argus.collector.alerting.notify;

import io.argus.collector.RateLimitedLog;
import io.argus.collector.alerting.rules.ChannelSpec;
import io.argus.collector.alerting.state.AlertEvent;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * Delivers one channel's notifications on the channel's own thread, so that a receiver that hangs or is down
 * delays nobody else: the evaluator only enqueues (never blocks; a full queue drops and counts). A failed attempt
 * is retried after 1, 2, 4, ... back-off units (at most {@link #MAX_BACKOFF_MS}) up to the channel's
 * {@code retries}; failures are counted and logged at most once per {@link #LOG_PERIOD_MS} per channel.
 */
final class ChannelDispatcher {
    private static final Logger LOG = Logger.getLogger(ChannelDispatcher.class.getName());
    static final int QUEUE = 1_000;
    static final long MAX_BACKOFF_MS = 300_000;
    static final long LOG_PERIOD_MS = 60_000;

    private final ChannelSpec spec;
    private final NotificationChannel channel;
    private final ScheduledExecutorService retryTimer;
    private final long backoffUnitMs;
    private final NotifyMetrics metrics;
    private final ThreadPoolExecutor worker;
    private final RateLimitedLog failures = new RateLimitedLog(LOG, TimeUnit.MILLISECONDS.toNanos(LOG_PERIOD_MS));
    final AtomicLong sent = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong dropped = new AtomicLong();
    volatile long lastSentMs;
    volatile long lastFailedMs;
    volatile String lastError;

    ChannelDispatcher(ChannelSpec spec, NotificationChannel channel, ScheduledExecutorService retryTimer,
                      long backoffUnitMs, NotifyMetrics metrics) {
        this.spec = spec;
        this.channel = channel;
        this.retryTimer = retryTimer;
        this.backoffUnitMs = backoffUnitMs;
        this.metrics = metrics;
        this.worker = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "argus-notify-" + spec.name());
            t.setDaemon(true);
            return t;
        });
    }

    ChannelSpec spec() {
        return spec;
    }

    /** Queues a notification; returns at once. */
    void offer(AlertEvent event) {
        submit(event, 0);
    }

    private void submit(AlertEvent event, int attempt) {
        try {
            worker.execute(() -> deliver(event, attempt));
        } catch (RejectedExecutionException e) {
            dropped.incrementAndGet();
            metrics.dropped(spec.name());
            failures.warn("dropped", "alert channel '" + spec.name() + "': notification of '" + event.rule().name()
                    + "' dropped: " + (worker.isShutdown() ? "the channel was reconfigured or the collector stops"
                    : QUEUE + " notifications already wait for it"));
        }
    }

    private void deliver(AlertEvent event, int attempt) {
        try {
            channel.send(event);
            sent.incrementAndGet();
            lastSentMs = System.currentTimeMillis();
            metrics.sent(spec.name());
            if (attempt > 0) {
                LOG.info("alert channel '" + spec.name() + "' delivered '" + event.rule().name() + "' after "
                        + (attempt + 1) + " attempts");
            }
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            failed.incrementAndGet();
            lastFailedMs = System.currentTimeMillis();
            lastError = describe(e);
            metrics.failed(spec.name());
            if (attempt < spec.retries() && !worker.isShutdown()) {
                long delay = Math.min(MAX_BACKOFF_MS, backoffUnitMs << Math.min(attempt, 20));
                failures.warn("failed", "alert channel '" + spec.name() + "' (" + spec.type() + ") is failing: "
                        + lastError + "; '" + event.rule().name() + "' " + new AlertMessage(event, "/").status()
                        + " retried in " + delay + " ms (attempt " + (attempt + 1) + " of " + (spec.retries() + 1)
                        + ")");
                try {
                    retryTimer.schedule(() -> submit(event, attempt + 1), delay, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException stopping) {
                    dropped.incrementAndGet();
                    metrics.dropped(spec.name());
                }
            } else {
                dropped.incrementAndGet();
                metrics.dropped(spec.name());
                failures.warn("gave up", "alert channel '" + spec.name() + "' gave up on '" + event.rule().name()
                        + "' after " + (attempt + 1) + " attempts: " + lastError);
            }
        }
    }

    /** The failure without secrets: the exception's type and message (channels keep URLs out of messages). */
    private static String describe(Exception e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }

    /** Stops taking notifications; those queued still go out (retries do not). */
    void close() {
        worker.shutdown();
    }

    /** Waits for the queued ones (tests, shutdown). */
    boolean awaitIdle(long timeoutMs) throws InterruptedException {
        return worker.awaitTermination(timeoutMs, TimeUnit.MILLISECONDS);
    }
}
