package io.argus.perf.harness.report;

import java.util.Locale;

/** Number formatting for the reports: fixed decimals, "–" for missing values. */
public final class Fmt {

    public static final String NONE = "–";

    private Fmt() {
    }

    public static String num(Double v, int decimals) {
        if (v == null || v.isNaN() || v.isInfinite()) {
            return NONE;
        }
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    public static String num(double v, int decimals) {
        return num(Double.valueOf(v), decimals);
    }

    /** Without thousands separators, as the seed's per-round tables. */
    public static String plain(double v, int decimals) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return NONE;
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    /** Latency in ms: 3 decimals below 10 ms, 2 below 100, else 1. */
    public static String ms(Double v) {
        if (v == null) {
            return NONE;
        }
        double a = Math.abs(v);
        return num(v, a < 10 ? 3 : a < 100 ? 2 : 1);
    }

    public static String ratio(Double v) {
        return v == null ? NONE : String.format(Locale.ROOT, "%.3f", v);
    }

    public static String p(Double v) {
        if (v == null) {
            return NONE;
        }
        return v < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", v);
    }

    public static String d(Double v) {
        return v == null ? NONE : String.format(Locale.ROOT, "%+.2f", v);
    }

    /** Escapes a value for a markdown table cell. */
    public static String cell(String s) {
        return s == null ? NONE : s.replace("|", "\\|").replace("\n", " ");
    }

    /** One line of at most {@code max} characters, "…" where cut. */
    public static String abbreviate(String s, int max) {
        String one = s.replace('\n', ' ');
        return one.length() <= max ? one : one.substring(0, max) + "…";
    }
}
