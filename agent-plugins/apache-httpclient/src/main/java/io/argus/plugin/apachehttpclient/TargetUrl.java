package io.argus.plugin.apachehttpclient;

/**
 * The URL a client span records, for HttpClient 4 and 5 alike: {@code scheme://host[:port]} then the path and
 * query, never the user info; a request whose URI is absolute keeps it whole. A helper: the advice calls it
 * inside the library's class loader.
 */
public final class TargetUrl {

    private TargetUrl() {
    }

    /**
     * @param scheme    null means http
     * @param port      negative when the request names none
     * @param pathOrUri the request's path (and query), or its whole URI when absolute; null or empty means "/"
     */
    public static String of(String scheme, String host, int port, String pathOrUri) {
        if (pathOrUri != null && !pathOrUri.isEmpty() && !pathOrUri.startsWith("/")) {
            return pathOrUri;
        }
        StringBuilder url = new StringBuilder(64).append(scheme == null ? "http" : scheme).append("://").append(host);
        if (port >= 0) {
            url.append(':').append(port);
        }
        return url.append(pathOrUri == null || pathOrUri.isEmpty() ? "/" : pathOrUri).toString();
    }

    /** The port the request goes to: its own, else the scheme's default. */
    public static int port(String scheme, int port) {
        return port >= 0 ? port : "https".equalsIgnoreCase(scheme) ? 443 : 80;
    }
}
