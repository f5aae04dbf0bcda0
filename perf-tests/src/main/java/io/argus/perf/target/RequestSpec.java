package io.argus.perf.target;

import java.net.URI;

/**
 * One HTTP request: what the readiness checks poll and what the load phases send.
 *
 * @param body        null for none
 * @param contentType used with a body
 */
public record RequestSpec(String method, URI uri, String body, String contentType, int expectedStatus) {

    public static RequestSpec get(String uri) {
        return new RequestSpec("GET", URI.create(uri), null, null, 200);
    }

    public static RequestSpec postJson(String uri, String body) {
        return new RequestSpec("POST", URI.create(uri), body, "application/json", 200);
    }

    public boolean matches(int status) {
        return status == expectedStatus;
    }

    public String describe() {
        return method + " " + uri + (body == null ? "" : " " + body);
    }
}
