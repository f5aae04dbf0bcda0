package io.argus.collector.alerting.notify;

import io.argus.collector.alerting.rules.AlertRule;
import io.argus.collector.alerting.rules.SignalKind;
import io.argus.collector.alerting.state.AlertEvent;
import io.argus.collector.alerting.state.AlertState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a notification says about an {@link AlertEvent}, in each channel's shape: the generic webhook's JSON (a
 * stable, versioned payload), Slack's incoming-webhook JSON and an e-mail's subject and text. Links point into the
 * collector's UI: the series the rule watches and example traces from the window it read.
 */
public final class AlertMessage {
    /** The generic webhook payload's version; a change that is not an added field bumps it. */
    public static final int PAYLOAD_VERSION = 1;

    private final AlertEvent event;
    private final String baseUrl;

    /** @param baseUrl the UI's address as readers reach it, ending in {@code /} */
    public AlertMessage(AlertEvent event, String baseUrl) {
        this.event = event;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl : baseUrl + "/";
    }

    /** {@code firing} or {@code resolved}. */
    public String status() {
        return event.to() == AlertState.FIRING ? "firing" : "resolved";
    }

    /** The generic webhook payload (documented in docs/collector.md#alerting). */
    public Map<String, Object> webhookPayload() {
        AlertRule r = event.rule();
        Map<String, Object> scope = new LinkedHashMap<>();
        scope.put("kind", r.kind());
        scope.put("method", r.method());
        scope.put("route", r.route());
        scope.put("instance", r.instance());
        scope.put("gauge", r.gauge());
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("fromMs", event.windowFromMs());
        window.put("toMs", event.windowToMs());
        Map<String, Object> links = new LinkedHashMap<>();
        links.put("series", seriesLink());
        links.put("traces", tracesLink());
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("version", PAYLOAD_VERSION);
        p.put("status", status());
        p.put("dedupKey", event.dedupKey());
        p.put("rule", r.name());
        p.put("severity", r.severity());
        p.put("service", r.service());
        p.put("scope", scope);
        p.put("signal", r.signal().id());
        p.put("unit", r.signal().unit());
        p.put("comparison", r.comparison());
        p.put("threshold", r.threshold());
        p.put("value", Double.isNaN(event.value()) ? null : event.value());
        p.put("windowMs", r.window().toMillis());
        p.put("forMs", r.pendingFor().toMillis());
        p.put("activeSinceMs", event.activeSinceMs());
        p.put("evaluatedAtMs", event.atMs());
        p.put("window", window);
        p.put("summary", summary());
        p.put("reason", event.reason());
        p.put("links", links);
        return p;
    }

    /** Slack's incoming-webhook body: one mrkdwn text with the links. */
    public Map<String, Object> slackPayload() {
        String icon = event.to() == AlertState.FIRING ? ":red_circle:" : ":large_green_circle:";
        String text = icon + " *" + status().toUpperCase(Locale.ROOT) + "* " + escapeSlack(summary())
                + "\n<" + seriesLink() + "|series> · <" + tracesLink() + "|traces from the window> · key `"
                + event.dedupKey() + "`";
        return Map.of("text", text);
    }

    public String emailSubject() {
        return "[" + status().toUpperCase(Locale.ROOT) + "] " + event.rule().name() + " (" + event.rule().service()
                + ")";
    }

    public String emailText() {
        AlertRule r = event.rule();
        return summary() + "\n\n"
                + "rule:        " + r.name() + " (severity " + r.severity() + ")\n"
                + "status:      " + status() + (event.reason() == null ? "" : " (" + event.reason() + ")") + "\n"
                + "active since " + Instant.ofEpochMilli(event.activeSinceMs()) + "\n"
                + "evaluated    " + Instant.ofEpochMilli(event.atMs()) + "\n"
                + "window read  " + Instant.ofEpochMilli(event.windowFromMs()) + " - "
                + Instant.ofEpochMilli(event.windowToMs()) + "\n"
                + "series:      " + seriesLink() + "\n"
                + "traces:      " + tracesLink() + "\n"
                + "dedup key:   " + event.dedupKey() + "\n";
    }

    /** One line: {@code front GET /checkout: error rate 50.0 % above 5.0 % over 1m}. */
    public String summary() {
        AlertRule r = event.rule();
        StringBuilder scope = new StringBuilder(r.service());
        if (r.method() != null) {
            scope.append(' ').append(r.method());
        }
        if (r.route() != null) {
            scope.append(' ').append(r.route());
        }
        if (r.instance() != null) {
            scope.append(" (").append(r.instance()).append(')');
        }
        String what = switch (r.signal()) {
            case ERROR_RATE -> "error rate";
            case P95_LATENCY -> "P95 latency";
            case P99_LATENCY -> "P99 latency";
            case REQUEST_RATE -> "request rate";
            case AGENT_SILENT -> "silent for";
            case DROPPED_SPANS -> "dropped spans";
            case JVM_GAUGE -> r.gauge();
        };
        String value = Double.isNaN(event.value()) ? "no data" : format(r.signal(), event.value());
        String bound = r.comparison() + " " + format(r.signal(), r.threshold());
        return scope + ": " + what + " " + value + (event.to() == AlertState.FIRING ? " " + bound
                : " (fires " + bound + ")") + " over " + format(r.window());
    }

    private static String format(SignalKind signal, double v) {
        return switch (signal) {
            case ERROR_RATE -> String.format(Locale.ROOT, "%.1f %%", v * 100);
            case P95_LATENCY, P99_LATENCY -> String.format(Locale.ROOT, "%.1f ms", v);
            case REQUEST_RATE -> String.format(Locale.ROOT, "%.2f/s", v);
            case AGENT_SILENT -> String.format(Locale.ROOT, "%.1f min", v);
            default -> v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v)
                    : String.format(Locale.ROOT, "%.3f", v);
        };
    }

    private static String format(Duration d) {
        long s = d.toSeconds();
        return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /** The UI's RED charts (or JVM charts, or agents) of the rule's scope over the window read. */
    public String seriesLink() {
        AlertRule r = event.rule();
        Map<String, String> q = new LinkedHashMap<>();
        q.put("view", r.signal() == SignalKind.JVM_GAUGE ? "jvm" : "red");
        q.put("service", r.service());
        if (r.signal().fromCalls()) {
            q.put("kind", r.kind());
            q.put("route", r.route());
            q.put("method", r.method());
        }
        putWindow(q);
        return baseUrl + "#" + query(q);
    }

    /** The UI's trace search for the rule's scope over the window: failed ones for an error rate, slow ones for latency. */
    public String tracesLink() {
        AlertRule r = event.rule();
        Map<String, String> q = new LinkedHashMap<>();
        q.put("view", "traces");
        q.put("service", r.service());
        if (r.signal().fromCalls() && "server".equals(r.kind())) {
            q.put("route", r.route());
        }
        switch (r.signal()) {
            case ERROR_RATE -> q.put("status", "error");
            case P95_LATENCY, P99_LATENCY -> {
                q.put("minDurationMs", format(r.threshold()));
                q.put("sort", "duration");
            }
            default -> {
            }
        }
        putWindow(q);
        return baseUrl + "#" + query(q);
    }

    private void putWindow(Map<String, String> q) {
        long to = event.to() == AlertState.RESOLVED ? event.atMs() : event.windowToMs();
        long from = Math.min(event.windowFromMs(), event.activeSinceMs() > 0 ? event.activeSinceMs() : Long.MAX_VALUE);
        q.put("from", String.valueOf(from));
        q.put("to", String.valueOf(Math.max(to, from + 1)));
    }

    private static String format(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static String query(Map<String, String> q) {
        StringBuilder b = new StringBuilder();
        q.forEach((k, v) -> {
            if (v != null) {
                b.append(b.isEmpty() ? "" : "&").append(k).append('=')
                        .append(URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20"));
            }
        });
        return b.toString();
    }

    /** Slack's mrkdwn reserves these three. */
    private static String escapeSlack(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
