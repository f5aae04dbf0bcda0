package io.argus.collector.alerting.state;

import io.argus.collector.alerting.rules.AlertRule;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The alert of every rule, its state machine (inactive → pending → firing → resolved) and the history of changes.
 * Written by the evaluator; read by the API at any time. Thread-safe.
 */
public final class AlertTracker {
    /** History entries kept, newest first; older ones are dropped. */
    public static final int HISTORY_SIZE = 2_000;

    private final Map<String, Tracked> alerts = new LinkedHashMap<>();
    private final ArrayDeque<AlertEvent> history = new ArrayDeque<>();

    /** The mutable state of one rule's alert. */
    private static final class Tracked {
        AlertRule rule;
        final String key;
        AlertState state = AlertState.INACTIVE;
        long activeSinceMs;
        long firedAtMs;
        long resolvedAtMs;
        double value = Double.NaN;
        long evaluatedAtMs;
        long windowFromMs;
        long windowToMs;
        String error;

        Tracked(AlertRule rule, String key) {
            this.rule = rule;
            this.key = key;
        }
    }

    /**
     * Takes the rules now in force: rules that are gone, or whose scope or signal changed (a new de-duplication
     * key), lose their alert; one that was firing is resolved (returned, to be notified) with that reason. A rule
     * whose bound, window or channels changed keeps its alert.
     */
    public synchronized List<AlertEvent> retain(Collection<AlertRule> rules, long nowMs) {
        Set<String> keys = new HashSet<>();
        Map<String, AlertRule> byKey = new LinkedHashMap<>();
        for (AlertRule r : rules) {
            String key = DedupKey.of(r);
            keys.add(key);
            byKey.put(key, r);
        }
        List<AlertEvent> out = new ArrayList<>();
        for (Iterator<Tracked> it = alerts.values().iterator(); it.hasNext(); ) {
            Tracked t = it.next();
            if (keys.contains(t.key)) {
                continue;
            }
            if (t.state == AlertState.FIRING) {
                out.add(record(t, AlertState.RESOLVED, nowMs, "the rule was removed or changed"));
            }
            it.remove();
        }
        Map<String, Tracked> ordered = new LinkedHashMap<>();
        byKey.forEach((key, rule) -> {
            Tracked t = alerts.get(key);
            if (t == null) {
                t = new Tracked(rule, key);
            }
            t.rule = rule;
            ordered.put(key, t);
        });
        alerts.clear();
        alerts.putAll(ordered);
        return out;
    }

    /**
     * One evaluation of {@code rule}: its value over the window read ({@code NaN}: no data, which never breaches).
     * Returns the change it caused, or {@code null}.
     */
    public synchronized AlertEvent evaluated(AlertRule rule, double value, long windowFromMs, long windowToMs,
                                             long nowMs) {
        Tracked t = tracked(rule);
        t.value = value;
        t.evaluatedAtMs = nowMs;
        t.windowFromMs = windowFromMs;
        t.windowToMs = windowToMs;
        t.error = null;
        boolean breached = !Double.isNaN(value) && rule.breached(value);
        switch (t.state) {
            case INACTIVE, RESOLVED -> {
                if (breached) {
                    t.activeSinceMs = nowMs;
                    return rule.pendingFor().isZero() ? fire(t, nowMs) : record(t, AlertState.PENDING, nowMs, null);
                }
            }
            case PENDING -> {
                if (!breached) {
                    return record(t, AlertState.INACTIVE, nowMs, null);
                }
                if (nowMs - t.activeSinceMs >= rule.pendingFor().toMillis()) {
                    return fire(t, nowMs);
                }
            }
            case FIRING -> {
                if (!breached) {
                    t.resolvedAtMs = nowMs;
                    return record(t, AlertState.RESOLVED, nowMs, null);
                }
            }
            default -> throw new IllegalStateException(t.state.name());
        }
        return null;
    }

    /** An evaluation that could not read its data: the state stays, the error is shown. */
    public synchronized void failed(AlertRule rule, String error, long nowMs) {
        Tracked t = tracked(rule);
        t.evaluatedAtMs = nowMs;
        t.error = error;
    }

    private Tracked tracked(AlertRule rule) {
        String key = DedupKey.of(rule);
        Tracked t = alerts.computeIfAbsent(key, k -> new Tracked(rule, k));
        t.rule = rule;
        return t;
    }

    private AlertEvent fire(Tracked t, long nowMs) {
        t.firedAtMs = nowMs;
        t.resolvedAtMs = 0;
        return record(t, AlertState.FIRING, nowMs, null);
    }

    private AlertEvent record(Tracked t, AlertState to, long nowMs, String reason) {
        AlertEvent e = new AlertEvent(nowMs, t.rule, t.key, t.state, to, t.value, t.activeSinceMs, t.windowFromMs,
                t.windowToMs, reason);
        t.state = to;
        history.addFirst(e);
        while (history.size() > HISTORY_SIZE) {
            history.removeLast();
        }
        return e;
    }

    /**
     * What the API shows of one alert.
     *
     * @param evaluatedAtMs 0 before the first evaluation
     * @param error         why the latest evaluation could not read its data, else {@code null}
     */
    public record Snapshot(AlertRule rule, String dedupKey, AlertState state, double value, long activeSinceMs,
                           long firedAtMs, long resolvedAtMs, long evaluatedAtMs, long windowFromMs,
                           long windowToMs, String error) {
    }

    /** Every rule's alert, in the rules file's order. */
    public synchronized List<Snapshot> alerts() {
        List<Snapshot> out = new ArrayList<>(alerts.size());
        for (Tracked t : alerts.values()) {
            out.add(new Snapshot(t.rule, t.key, t.state, t.value, t.activeSinceMs, t.firedAtMs, t.resolvedAtMs,
                    t.evaluatedAtMs, t.windowFromMs, t.windowToMs, t.error));
        }
        return out;
    }

    /** The latest changes, newest first, at most {@code limit}; only {@code service}'s when not {@code null}. */
    public synchronized List<AlertEvent> history(String service, int limit) {
        List<AlertEvent> out = new ArrayList<>(Math.min(limit, history.size()));
        for (AlertEvent e : history) {
            if (out.size() >= limit) {
                break;
            }
            if (service == null || service.equals(e.rule().service())) {
                out.add(e);
            }
        }
        return out;
    }
}
