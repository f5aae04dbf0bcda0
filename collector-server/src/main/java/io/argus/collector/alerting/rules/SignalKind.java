package io.argus.collector.alerting.rules;

import java.util.Locale;

/** What a rule watches, with the unit its bound is given in. */
public enum SignalKind {
    /** Failed calls over all calls in the window, a fraction (the file may say {@code 5%}). */
    ERROR_RATE("error_rate", "ratio"),
    /** 95th percentile of call latency over the window, milliseconds. */
    P95_LATENCY("p95_latency", "ms"),
    /** 99th percentile of call latency over the window, milliseconds. */
    P99_LATENCY("p99_latency", "ms"),
    /** Calls per second over the window. */
    REQUEST_RATE("request_rate", "per_second"),
    /** Minutes since the service (or one instance of it) last reported. */
    AGENT_SILENT("agent_silent", "minutes"),
    /** Spans the service's agents dropped (full queue, collector away) during the window. */
    DROPPED_SPANS("dropped_spans", "spans"),
    /** The highest latest value of one JVM gauge over the service's instances in the window. */
    JVM_GAUGE("jvm_gauge", "gauge");

    private final String id;
    private final String unit;

    SignalKind(String id, String unit) {
        this.id = id;
        this.unit = unit;
    }

    /** The name in the rules file and the API. */
    public String id() {
        return id;
    }

    public String unit() {
        return unit;
    }

    /** Whether the signal is read from the RED series (and so takes a route, method, target or kind). */
    public boolean fromCalls() {
        return this == ERROR_RATE || this == P95_LATENCY || this == P99_LATENCY || this == REQUEST_RATE;
    }

    /** The signal named {@code id}, or {@code null}. */
    static SignalKind of(String id) {
        String lower = id.toLowerCase(Locale.ROOT);
        for (SignalKind s : values()) {
            if (s.id.equals(lower)) {
                return s;
            }
        }
        return null;
    }

    static String names() {
        StringBuilder b = new StringBuilder();
        for (SignalKind s : values()) {
            b.append(b.isEmpty() ? "" : ", ").append(s.id);
        }
        return b.toString();
    }
}
