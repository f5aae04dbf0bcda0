package io.argus.perf.moobench.report;

import java.util.Locale;

/** How moobench.md and the console write numbers: "–" for none, "k" for thousands of traces per second. */
final class MooFormat {

    private MooFormat() {
    }

    static String humanNs(double ns) {
        if (Math.abs(ns) >= 1e6) {
            return trim(ns / 1e6) + " ms";
        }
        if (Math.abs(ns) >= 1e3) {
            return trim(ns / 1e3) + " µs";
        }
        return trim(ns) + " ns";
    }

    static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.1f", v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    static String k(double tracesPerSecond) {
        return String.format(Locale.ROOT, "%,.1fk", tracesPerSecond / 1000);
    }

    static String pm(double v, double ci) {
        return String.format(Locale.ROOT, "%.1f ± %.1f", v, ci);
    }

    static String f0(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    static String f1(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
    }

    static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String count(Long v) {
        return v == null || v < 0 ? "–" : String.format(Locale.ROOT, "%,d", v);
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }

    static String oneLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).replace("|", "\\|");
    }
}
