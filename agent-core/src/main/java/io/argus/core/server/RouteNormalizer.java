package io.argus.core.server;

/**
 * Names a request by its route when no framework gives a template: path segments that look like
 * ids (all digits, a UUID, or 16 or more hex digits) become {@code {id}}, so that
 * {@code /api/orders/42} and {@code /api/orders/43} share one metric cell, {@code /api/orders/{id}}.
 * A path without such a segment is returned as it is, without allocating.
 */
public final class RouteNormalizer {

    static final String ID = "{id}";
    private static final int LONG_HEX = 16;

    private final boolean enabled;

    public RouteNormalizer(boolean enabled) {
        this.enabled = enabled;
    }

    public String route(String path) {
        if (!enabled || path == null) {
            return path;
        }
        int n = path.length();
        StringBuilder out = null;
        int copied = 0;
        int start = 0;
        while (start <= n) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = n;
            }
            if (end > start && isIdLike(path, start, end)) {
                if (out == null) {
                    out = new StringBuilder(n);
                }
                out.append(path, copied, start).append(ID);
                copied = end;
            }
            start = end + 1;
        }
        if (out == null) {
            return path;
        }
        return out.append(path, copied, n).toString();
    }

    static boolean isIdLike(String path, int start, int end) {
        int length = end - start;
        boolean digitsOnly = true;
        boolean hexOnly = true;
        for (int i = start; i < end; i++) {
            char c = path.charAt(i);
            boolean digit = c >= '0' && c <= '9';
            digitsOnly &= digit;
            hexOnly &= digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
        }
        return digitsOnly || (hexOnly && length >= LONG_HEX) || isUuid(path, start, length);
    }

    /** 8-4-4-4-12 hex digits. */
    private static boolean isUuid(String path, int start, int length) {
        if (length != 36) {
            return false;
        }
        for (int i = 0; i < 36; i++) {
            char c = path.charAt(start + i);
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return false;
                }
            } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
                return false;
            }
        }
        return true;
    }
}
