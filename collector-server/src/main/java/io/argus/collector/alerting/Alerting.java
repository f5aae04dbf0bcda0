package io.argus.collector.alerting;

import io.argus.collector.alerting.eval.AlertEvaluator;
import io.argus.collector.alerting.eval.SignalReader;
import io.argus.collector.alerting.notify.Notifier;
import io.argus.collector.alerting.rules.RuleFile;
import io.argus.collector.alerting.rules.RuleFileException;
import io.argus.collector.alerting.rules.RuleFileParser;
import io.argus.collector.alerting.state.AlertTracker;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.MetricStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The collector's alerting: the rules file, the evaluator over the query interfaces, the alerts' state and history,
 * and the notification channels. The same on an embedded collector and on a Druid query node.
 */
public final class Alerting implements AutoCloseable {
    private final RuleFile file;
    private final AlertTracker tracker;
    private final Notifier notifier;
    private final AlertEvaluator evaluator;

    private Alerting(RuleFile file, AlertTracker tracker, Notifier notifier, AlertEvaluator evaluator) {
        this.file = file;
        this.tracker = tracker;
        this.notifier = notifier;
        this.evaluator = evaluator;
    }

    /**
     * Reads {@code rulesFile} and starts evaluating.
     *
     * @param ownUrl the collector's UI address, for links when the file sets no {@code public_url}
     * @throws RuleFileException when the file cannot be read or is malformed: the message names the line
     */
    public static Alerting start(Path rulesFile, MetricStore metrics, AgentDirectory agents, MeterRegistry meters,
                                 Supplier<String> ownUrl) throws RuleFileException {
        return start(rulesFile, metrics, agents, meters, ownUrl, Notifier.DEFAULT_BACKOFF_MS, System::getenv);
    }

    /** As above, with the retry back-off unit and the environment secrets are read from (tests). */
    public static Alerting start(Path rulesFile, MetricStore metrics, AgentDirectory agents, MeterRegistry meters,
                                 Supplier<String> ownUrl, long backoffUnitMs,
                                 java.util.function.UnaryOperator<String> environment) throws RuleFileException {
        RuleFile file = new RuleFile(rulesFile, new RuleFileParser(environment));
        file.load();
        AlertTracker tracker = new AlertTracker();
        Supplier<String> baseUrl = () -> {
            String configured = file.rules().publicUrl();
            return configured != null ? configured : ownUrl.get();
        };
        Notifier notifier = new Notifier(meters, baseUrl, backoffUnitMs);
        AlertEvaluator evaluator = new AlertEvaluator(file, new SignalReader(metrics, agents), tracker, notifier,
                meters, Clock.systemUTC());
        evaluator.start();
        return new Alerting(file, tracker, notifier, evaluator);
    }

    /** {@code GET /api/alerts/rules}: the file's state, the rules and the channels (without secrets). */
    public Map<String, Object> rules() {
        return AlertsJson.rules(file.status(), file.rules(), notifier.status());
    }

    /** {@code GET /api/alerts}: every rule's alert, firing first. */
    public List<Map<String, Object>> alerts() {
        return AlertsJson.alerts(tracker.alerts());
    }

    /** {@code GET /api/alerts/history}: the latest state changes, newest first. */
    public List<Map<String, Object>> history(String service, int limit) {
        return AlertsJson.history(tracker.history(service, limit));
    }

    @Override
    public void close() {
        evaluator.close();
        notifier.close();
    }
}
