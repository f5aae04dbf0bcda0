package io.argus.collector.alerting.eval;

import io.argus.collector.RateLimitedLog;
import io.argus.collector.alerting.notify.Notifier;
import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.rules.RuleFile;
import io.argus.collector.alerting.rules.RuleSet;
import io.argus.collector.alerting.state.AlertEvent;
import io.argus.collector.alerting.state.AlertState;
import io.argus.collector.alerting.state.AlertTracker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Evaluates every rule once per evaluation interval on its own thread: reads each rule's signal through the query
 * interfaces ({@link SignalReader}), moves its alert through the {@link AlertTracker} and hands firing and
 * resolved events to the {@link Notifier} (which only enqueues). Between evaluations it looks at the rules file
 * every second and takes a changed one at once. A rule whose query fails keeps its state and shows the error; the
 * other rules are evaluated all the same.
 */
public final class AlertEvaluator implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AlertEvaluator.class.getName());
    static final long TICK_MS = 250;
    static final long FILE_POLL_MS = 1_000;

    private final RuleFile file;
    private final SignalReader reader;
    private final AlertTracker tracker;
    private final Notifier notifier;
    private final Clock clock;
    private final ScheduledExecutorService thread;
    private final RateLimitedLog queryFailures = new RateLimitedLog(LOG, TimeUnit.MINUTES.toNanos(1));
    private final Timer passTimer;
    private final Counter ok;
    private final Counter failed;
    private long nextEvaluationMs;
    private long nextPollMs;

    public AlertEvaluator(RuleFile file, SignalReader reader, AlertTracker tracker, Notifier notifier,
                          MeterRegistry meters, Clock clock) {
        this.file = file;
        this.reader = reader;
        this.tracker = tracker;
        this.notifier = notifier;
        this.clock = clock;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "argus-alerts");
            t.setDaemon(true);
            return t;
        });
        this.passTimer = Timer.builder("argus.collector.alerts.evaluation")
                .description("one evaluation of every alert rule").register(meters);
        this.ok = Counter.builder("argus.collector.alerts.rule.evaluations").tag("outcome", "ok")
                .description("rule evaluations, by outcome (failed: the query could not be answered)")
                .register(meters);
        this.failed = Counter.builder("argus.collector.alerts.rule.evaluations").tag("outcome", "failed")
                .description("rule evaluations, by outcome (failed: the query could not be answered)")
                .register(meters);
        Gauge.builder("argus.collector.alerts.firing", tracker,
                        t -> t.alerts().stream().filter(a -> a.state() == AlertState.FIRING).count())
                .description("alerts firing now").register(meters);
    }

    /** Takes the rules read so far and starts the evaluation thread. */
    public void start() {
        apply(file.rules());
        thread.scheduleWithFixedDelay(this::tick, 0, TICK_MS, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            long now = clock.millis();
            if (now >= nextPollMs) {
                nextPollMs = now + FILE_POLL_MS;
                if (file.poll()) {
                    apply(file.rules());
                    nextEvaluationMs = now;
                }
            }
            if (now >= nextEvaluationMs) {
                RuleSet rules = file.rules();
                nextEvaluationMs = now + rules.interval().toMillis();
                evaluate(rules.rules(), now);
            }
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.WARNING, "alert evaluation failed", e);
        }
    }

    private void apply(RuleSet rules) {
        notifier.configure(rules.channels());
        reader.retain(rules.rules());
        tracker.retain(rules.rules(), clock.millis()).forEach(notifier::notify);
    }

    /** One pass over {@code rules} as of {@code nowMs}; on the evaluation thread (or a benchmark's). */
    public void evaluate(List<AlertRule> rules, long nowMs) {
        long start = System.nanoTime();
        for (AlertRule rule : rules) {
            Reading reading;
            try {
                reading = reader.read(rule, nowMs);
            } catch (RuntimeException e) {
                failed.increment();
                tracker.failed(rule, String.valueOf(e.getMessage()), nowMs);
                queryFailures.warn(rule.name(), "alert rule '" + rule.name() + "' not evaluated: " + e);
                continue;
            }
            ok.increment();
            AlertEvent event = tracker.evaluated(rule, reading.value(), reading.fromMs(), reading.toMs(), nowMs);
            if (event != null) {
                if (event.notifies()) {
                    LOG.info("alert '" + rule.name() + "' " + event.to().label() + " (value " + reading.value()
                            + ", " + rule.comparison() + " " + rule.threshold() + ")");
                }
                notifier.notify(event);
            }
        }
        passTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
