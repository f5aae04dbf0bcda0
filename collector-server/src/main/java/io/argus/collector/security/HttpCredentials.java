package io.argus.collector.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * What the HTTP listeners (API, UI, {@code /metrics}, OTLP/HTTP) accept in {@code Authorization}: a bearer
 * token, a user and password (HTTP Basic), both, or neither ({@link #NONE}, everything open; the collector then
 * listens on loopback only).
 */
public record HttpCredentials(String token, String user, String password) {
    public static final HttpCredentials NONE = new HttpCredentials(null, null, null);

    public HttpCredentials {
        token = emptyToNull(token);
        user = emptyToNull(user);
        password = emptyToNull(password);
        if ((user == null) != (password == null)) {
            throw new IllegalArgumentException("an API user needs a password and a password needs a user");
        }
        if (user != null && user.indexOf(':') >= 0) {
            throw new IllegalArgumentException("the API user must not contain ':'");
        }
    }

    public static HttpCredentials token(String token) {
        return new HttpCredentials(token, null, null);
    }

    public static HttpCredentials basic(String user, String password) {
        return new HttpCredentials(null, user, password);
    }

    /** True when a token or a user is set, i.e. requests must authenticate. */
    public boolean required() {
        return token != null || user != null;
    }

    /** Whether an {@code Authorization} header value carries an accepted credential. Comparisons take constant time. */
    public boolean accepts(String authorization) {
        if (!required()) {
            return true;
        }
        if (authorization == null) {
            return false;
        }
        String value = authorization.strip();
        if (token != null && startsWithScheme(value, "Bearer")) {
            return same(value.substring("Bearer".length()).strip(), token);
        }
        if (user != null && startsWithScheme(value, "Basic")) {
            byte[] decoded;
            try {
                decoded = Base64.getDecoder().decode(value.substring("Basic".length()).strip());
            } catch (IllegalArgumentException e) {
                return false;
            }
            return same(new String(decoded, StandardCharsets.UTF_8), user + ":" + password);
        }
        return false;
    }

    private static boolean startsWithScheme(String value, String scheme) {
        return value.regionMatches(true, 0, scheme, 0, scheme.length())
                && value.length() > scheme.length() && value.charAt(scheme.length()) == ' ';
    }

    private static boolean same(String given, String expected) {
        return MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    /** Hides the secrets. */
    @Override
    public String toString() {
        return "HttpCredentials[token=" + (token == null ? "none" : "***") + ", user=" + (user == null ? "none" : user)
                + "]";
    }
}
