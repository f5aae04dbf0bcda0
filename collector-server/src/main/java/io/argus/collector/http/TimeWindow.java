package io.argus.collector.http;

import io.argus.collector.storage.TimeRange;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time range and step of a query: {@code from}/{@code to} in epoch milliseconds, or {@code range} back from
 * now ({@code 15m}, {@code 1h}, {@code 6h}, {@code 24h}; any whole number of s, m, h or d), and an optional
 * {@code step} of the same form.
 */
final class TimeWindow {
    /** Longest range a query may cover. */
    static final long MAX_RANGE_MS = 400L * 24 * 3600 * 1000;
    /** Most points a series may have; a smaller step is refused. */
    static final long MAX_POINTS = 2_000;
    /** About this many points when the step is not given. */
    static final long TARGET_POINTS = 120;
    private static final long[] STEPS_MS = {
        1_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
        7_200_000, 21_600_000, 43_200_000, 86_400_000};
    /** Spans are stored in epoch nanoseconds: later times do not fit. */
    private static final long MAX_EPOCH_MS = Long.MAX_VALUE / 1_000_000L;
    private static final Pattern LENGTH = Pattern.compile("(\\d{1,9})(s|m|h|d)");

    private TimeWindow() {
    }

    /**
     * The request's range, or the last {@code defaultMs} before {@code nowMs} when it names none
     * ({@code defaultMs} 0: {@code null}, every stored time).
     */
    static TimeRange range(QueryParams params, long nowMs, long defaultMs) {
        String range = params.string("range");
        String from = params.string("from");
        String to = params.string("to");
        if (range != null && from != null) {
            throw ApiException.badRequest("give either 'range' or 'from' (with an optional 'to'), not both");
        }
        if (range == null && from == null && to == null) {
            return defaultMs == 0 ? null : new TimeRange(nowMs - defaultMs, nowMs);
        }
        long end = to == null ? nowMs : epochMs("to", to);
        long start;
        if (range != null) {
            start = end - length("range", range);
        } else if (from != null) {
            start = epochMs("from", from);
        } else {
            start = end - (defaultMs == 0 ? 3_600_000 : defaultMs);
        }
        if (start < 0) {
            throw ApiException.badRequest("time range would start before 1970: 'range' is longer than 'to'");
        }
        if (start >= end) {
            throw ApiException.badRequest("'from' (" + start + ") must be before 'to' (" + end + ")");
        }
        if (end - start > MAX_RANGE_MS) {
            throw ApiException.badRequest("time range of " + (end - start) / 86_400_000 + " days is longer than "
                    + "the most, " + MAX_RANGE_MS / 86_400_000 + " days");
        }
        return new TimeRange(start, end);
    }

    /** The request's {@code step}, or a round step that gives about {@link #TARGET_POINTS} points. */
    static long step(QueryParams params, TimeRange range) {
        String step = params.string("step");
        if (step == null) {
            long wanted = range.durationMs() / TARGET_POINTS;
            for (long s : STEPS_MS) {
                if (s >= wanted) {
                    return s;
                }
            }
            return STEPS_MS[STEPS_MS.length - 1];
        }
        long ms = length("step", step);
        if (range.durationMs() / ms > MAX_POINTS) {
            throw ApiException.badRequest("step " + step + " gives more than " + MAX_POINTS + " points over "
                    + range.durationMs() / 1000 + " s; choose a larger one");
        }
        return ms;
    }

    /** {@code range} widened to whole steps, so that no point of a series covers only part of its step. */
    static TimeRange wholeSteps(TimeRange range, long step) {
        return new TimeRange(Math.floorDiv(range.fromMs(), step) * step,
                Math.floorDiv(range.toMs() + step - 1, step) * step);
    }

    private static long epochMs(String name, String value) {
        try {
            long v = Long.parseLong(value);
            if (v < 0 || v > MAX_EPOCH_MS) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("parameter '" + name + "' must be epoch milliseconds (0 to " + MAX_EPOCH_MS
                    + "), got '"
                    + QueryParams.truncate(value) + "'");
        }
    }

    /** A length of time such as {@code 15m}, in milliseconds. */
    private static long length(String name, String value) {
        Matcher m = LENGTH.matcher(value.toLowerCase(Locale.ROOT));
        long n = m.matches() ? Long.parseLong(m.group(1)) : 0;
        if (n == 0) {
            throw ApiException.badRequest("parameter '" + name + "' must be a positive whole number with a unit s, m,"
                    + " h or d (e.g. 15m, 1h, 6h, 24h), got '" + QueryParams.truncate(value) + "'");
        }
        long unit = switch (m.group(2)) {
            case "s" -> 1_000L;
            case "m" -> 60_000L;
            case "h" -> 3_600_000L;
            default -> 86_400_000L;
        };
        if (n > MAX_RANGE_MS / unit) {
            throw ApiException.badRequest("parameter '" + name + "' is longer than " + MAX_RANGE_MS / 86_400_000
                    + " days: '" + value + "'");
        }
        return n * unit;
    }
}
