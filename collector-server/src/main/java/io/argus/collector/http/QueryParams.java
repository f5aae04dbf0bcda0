package io.argus.collector.http;

import java.util.List;
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

    int intValue(String name, int defaultValue, int min, int max) {
        String v = string(name);
        if (v == null) {
            return defaultValue;
        }
        long parsed;
        try {
            parsed = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("parameter '" + name + "' must be an integer, got '" + v + "'");
        }
        if (parsed < min) {
            throw ApiException.badRequest("parameter '" + name + "' must be at least " + min + ", got " + v);
        }
        return (int) Math.min(parsed, max);
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
