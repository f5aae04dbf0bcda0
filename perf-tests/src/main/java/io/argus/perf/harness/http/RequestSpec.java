package io.argus.perf.harness.http;

import java.net.URI;
import java.util.Locale;

/**
 * One HTTP request: what the readiness checks poll and what the load phases send.
 *
 * @param body        null for none; with {@code risingFrom >= 0} a template whose {@code %d} is
 *                    replaced by a value that rises by one with every request sent
 * @param contentType used with a body
 * @param risingFrom  the first value of the rising {@code %d}, or -1 for a fixed body
 */
public record RequestSpec(String method, URI uri, String body, String contentType, int expectedStatus,
                          long risingFrom) {

    public RequestSpec(String method, URI uri, String body, String contentType, int expectedStatus) {
        this(method, uri, body, contentType, expectedStatus, -1);
    }

    public static RequestSpec get(String uri) {
        return new RequestSpec("GET", URI.create(uri), null, null, 200);
    }

    public static RequestSpec postJson(String uri, String body) {
        return new RequestSpec("POST", URI.create(uri), body, "application/json", 200);
    }

    /** A JSON POST whose body's {@code %d} rises by one per request, starting at {@code from} (the seed's query loop). */
    public static RequestSpec postJsonRising(String uri, String template, long from) {
        if (!template.contains("%d")) {
            throw new IllegalArgumentException("template has no %d: " + template);
        }
        return new RequestSpec("POST", URI.create(uri), template, "application/json", 200, from);
    }

    public boolean rising() {
        return risingFrom >= 0;
    }

    /** The body of the {@code n}-th request (0-based): the template filled in, or the fixed body. */
    public String bodyAt(long n) {
        return rising() ? String.format(Locale.ROOT, body, risingFrom + n) : body;
    }

    /** The {@code n}-th request as a fixed-body spec. */
    public RequestSpec withBodyAt(long n) {
        return new RequestSpec(method, uri, bodyAt(n), contentType, expectedStatus);
    }

    /** The first request of this spec, with its body filled in. */
    public RequestSpec first() {
        return rising() ? withBodyAt(0) : this;
    }

    public boolean matches(int status) {
        return status == expectedStatus;
    }

    public String describe() {
        return method + " " + uri + (body == null ? "" : " " + body)
                + (rising() ? " (%d rising by 1 per request from " + risingFrom + ")" : "");
    }
}
