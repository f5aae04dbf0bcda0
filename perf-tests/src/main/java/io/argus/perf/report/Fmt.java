package io.argus.perf.report;

import java.util.Locale;

/** Number formatting for the reports: fixed decimals, "–" for missing values. */
final class Fmt {

    static final String NONE = "–";

    private Fmt() {
    }

    static String num(Double v, int decimals) {
        if (v == null || v.isNaN() || v.isInfinite()) {
            return NONE;
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    static String num(double v, int decimals) {
        return num(Double.valueOf(v), decimals);
    }

    /** Without thousands separators, as the seed's per-round tables. */
    static String plain(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return NONE;
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** Latency in ms: 3 decimals below 10 ms, 2 below 100, else 1. */
    static String ms(Double v) {
        if (v == null) {
            return NONE;
        }
        double a = Math.abs(v);
        return num(v, a < 10 ? 3 : a < 100 ? 2 : 1);
    }

    static String ratio(Double v) {
        return v == null ? NONE : String.format(Locale.ROOT, "%.3f", v);
    }

    static String p(Double v) {
        if (v == null) {
            return NONE;
        }
        return v < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String d(Double v) {
        return v == null ? NONE : String.format(Locale.ROOT, "%+.2f", v);
    }

    /** Escapes a value for a markdown table cell. */
    static String cell(String s) {
        return s == null ? NONE : s.replace("|", "\\|").replace("\n", " ");
    }
}
