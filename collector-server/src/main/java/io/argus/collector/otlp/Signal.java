package io.argus.collector.otlp;

/** The OTLP signals this receiver takes, by request path. */
enum Signal {
    TRACES("/v1/traces"),
    METRICS("/v1/metrics");

    private final String path;

    Signal(String path) {
        this.path = path;
    }

    String path() {
        return path;
    }

    /** The signal of a request URI (query ignored), or {@code null}. */
    static Signal of(String uri) {
        int q = uri.indexOf('?');
        String path = q >= 0 ? uri.substring(0, q) : uri;
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        for (Signal s : values()) {
            if (s.path.equals(path)) {
                return s;
            }
        }
        return null;
    }
}
