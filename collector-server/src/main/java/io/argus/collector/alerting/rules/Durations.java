package io.argus.collector.alerting.rules;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Lengths of time as the rules file writes them: {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}. */
final class Durations {
    private static final Pattern LENGTH = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h|d)");

    private Durations() {
    }

    static Duration parse(String text) {
        Matcher m = LENGTH.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    private static final Pattern DECIMAL = Pattern.compile("(\\d{1,9}(?:\\.\\d{1,6})?)\\s*(ms|s|m|h)");

    /** A length with an optional fraction ({@code 1.5s}, {@code 250ms}) in milliseconds, or {@code null}. */
    static Double decimalMillis(String text) {
        Matcher m = DECIMAL.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        double n = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> n;
            case "s" -> n * 1_000;
            case "m" -> n * 60_000;
            default -> n * 3_600_000;
        };
    }

    /** The shortest way the file would write {@code d}: {@code 90s}, {@code 5m}, {@code 250ms}. */
    static String format(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms % 86_400_000 == 0) {
            return ms / 86_400_000 + "d";
        }
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
