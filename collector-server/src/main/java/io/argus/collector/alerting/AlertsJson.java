package io.argus.collector.alerting;

import io.argus.collector.alerting.notify.AlertMessage;
import io.argus.collector.alerting.notify.Notifier;
import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.rules.RuleFile;
import io.argus.collector.alerting.rules.RuleSet;
import io.argus.collector.alerting.state.AlertEvent;
import io.argus.collector.alerting.state.AlertState;
import io.argus.collector.alerting.state.AlertTracker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The alerting API's JSON shapes, as ordered maps (no secret ever enters them: channels show their source only). */
final class AlertsJson {
    private AlertsJson() {
    }

    static Map<String, Object> rules(RuleFile.Status status, RuleSet rules, List<Notifier.ChannelStatus> channels) {
        Map<String, Object> fileJson = new LinkedHashMap<>();
        fileJson.put("path", status.path());
        fileJson.put("loadedAtMs", status.loadedAtMs());
        fileJson.put("error", status.error());
        fileJson.put("errorLine", status.errorLine());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("file", fileJson);
        out.put("evaluationIntervalMs", rules.interval().toMillis());
        out.put("publicUrl", rules.publicUrl());
        out.put("rules", rules.rules().stream().map(AlertsJson::rule).toList());
        out.put("channels", channels);
        return out;
    }

    private static Map<String, Object> rule(AlertRule r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name());
        m.put("service", r.service());
        m.put("kind", r.kind());
        m.put("method", r.method());
        m.put("route", r.route());
        m.put("instance", r.instance());
        m.put("gauge", r.gauge());
        m.put("signal", r.signal().id());
        m.put("unit", r.signal().unit());
        m.put("comparison", r.comparison());
        m.put("threshold", r.threshold());
        m.put("windowMs", r.window().toMillis());
        m.put("forMs", r.pendingFor().toMillis());
        m.put("minCalls", r.minCalls());
        m.put("severity", r.severity());
        m.put("channels", r.channels());
        m.put("line", r.line());
        return m;
    }

    /** Firing first, then pending, resolved and inactive; in the file's order within each. */
    static List<Map<String, Object>> alerts(List<AlertTracker.Snapshot> snapshots) {
        List<AlertTracker.Snapshot> sorted = new ArrayList<>(snapshots);
        sorted.sort(Comparator.comparingInt(s -> order(s.state())));
        List<Map<String, Object>> out = new ArrayList<>();
        for (AlertTracker.Snapshot s : sorted) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rule", s.rule().name());
            m.put("dedupKey", s.dedupKey());
            m.put("state", s.state().label());
            m.put("severity", s.rule().severity());
            m.put("service", s.rule().service());
            scope(m, s.rule());
            m.put("value", Double.isNaN(s.value()) ? null : s.value());
            m.put("activeSinceMs", s.activeSinceMs());
            m.put("firedAtMs", s.firedAtMs());
            m.put("resolvedAtMs", s.resolvedAtMs());
            m.put("evaluatedAtMs", s.evaluatedAtMs());
            m.put("window", window(s.windowFromMs(), s.windowToMs()));
            m.put("error", s.error());
            if (s.evaluatedAtMs() > 0) {
                AlertEvent asEvent = new AlertEvent(s.evaluatedAtMs(), s.rule(), s.dedupKey(), s.state(), s.state(),
                        s.value(), s.activeSinceMs(), s.windowFromMs(), s.windowToMs(), null);
                m.put("summary", new AlertMessage(asEvent, "/").summary());
                m.put("links", links(asEvent));
            }
            out.add(m);
        }
        return out;
    }

    static List<Map<String, Object>> history(List<AlertEvent> events) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (AlertEvent e : events) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("atMs", e.atMs());
            m.put("rule", e.rule().name());
            m.put("dedupKey", e.dedupKey());
            m.put("service", e.rule().service());
            m.put("from", e.from().label());
            m.put("to", e.to().label());
            scope(m, e.rule());
            m.put("value", Double.isNaN(e.value()) ? null : e.value());
            m.put("activeSinceMs", e.activeSinceMs());
            m.put("window", window(e.windowFromMs(), e.windowToMs()));
            m.put("reason", e.reason());
            m.put("summary", new AlertMessage(e, "/").summary());
            m.put("links", links(e));
            out.add(m);
        }
        return out;
    }

    private static void scope(Map<String, Object> m, AlertRule r) {
        m.put("kind", r.kind());
        m.put("method", r.method());
        m.put("route", r.route());
        m.put("instance", r.instance());
        m.put("signal", r.signal().id());
        m.put("unit", r.signal().unit());
        m.put("comparison", r.comparison());
        m.put("threshold", r.threshold());
    }

    private static Map<String, Object> window(long fromMs, long toMs) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("fromMs", fromMs);
        w.put("toMs", toMs);
        return w;
    }

    /** Links within the UI (relative to its page). */
    private static Map<String, Object> links(AlertEvent e) {
        AlertMessage m = new AlertMessage(e, "/");
        Map<String, Object> links = new LinkedHashMap<>();
        links.put("series", m.seriesLink());
        links.put("traces", m.tracesLink());
        return links;
    }

    private static int order(AlertState state) {
        return switch (state) {
            case FIRING -> 0;
            case PENDING -> 1;
            case RESOLVED -> 2;
            case INACTIVE -> 3;
        };
    }
}
