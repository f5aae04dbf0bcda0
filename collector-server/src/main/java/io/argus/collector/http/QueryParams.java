package io.argus.collector.http;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Typed access to a request's query parameters; a malformed value is a 400. */
final class QueryParams {
    private final Map<String, List<String>> params;

    QueryParams(Map<String, List<String>> params) {
        this.params = params;
    }

    /** The parameter's last value, or {@code null} when absent or empty. */
    String string(String name) {
        List<String> values = params.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        String v = values.get(values.size() - 1).strip();
        return v.isEmpty() ? null : v;
    }

    /** Every non-empty value of a repeatable parameter, in order. */
    List<String> strings(String name) {
        List<String> values = params.get(name);
        if (values == null) {
            return List.of();
        }
        return values.stream().map(String::strip).filter(v -> !v.isEmpty()).toList();
    }

    /** The value of an enumerated parameter, lower case, or {@code defaultValue} when absent. */
    String choice(String name, String defaultValue, List<String> allowed) {
        String v = string(name);
        if (v == null) {
            return defaultValue;
        }
        String lower = v.toLowerCase(Locale.ROOT);
        if (!allowed.contains(lower)) {
            throw ApiException.badRequest("parameter '" + name + "' must be one of " + String.join(", ", allowed)
                    + ", got '" + truncate(v) + "'");
        }
        return lower;
    }

    boolean has(String name) {
        return !strings(name).isEmpty();
    }

    static String truncate(String s) {
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }

    int intValue(String name, int defaultValue, int min, int max) {
        String v = string(name);
        if (v == null) {
            return defaultValue;
        }
        long parsed;
        try {
            parsed = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("parameter '" + name + "' must be an integer, got '" + truncate(v) + "'");
        }
        if (parsed < min) {
            throw ApiException.badRequest("parameter '" + name + "' must be at least " + min + ", got " + v);
        }
        if (parsed > max) {
            // never cut silently: the client would take a partial answer for the whole one
            throw ApiException.badRequest("parameter '" + name + "' must be at most " + max + ", got " + v);
        }
        return (int) parsed;
    }

    double doubleValue(String name, double defaultValue, double min) {
        String v = string(name);
        if (v == null) {
            return defaultValue;
        }
        double parsed;
        try {
            parsed = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("parameter '" + name + "' must be a number, got '" + v + "'");
        }
        if (!Double.isFinite(parsed) || parsed < min) {
            throw ApiException.badRequest("parameter '" + name + "' must be a finite number of at least " + min
                    + ", got '" + v + "'");
        }
        return parsed;
    }
}
