package io.argus.core.db;

/**
 * What a connection's JDBC URL says about the database: the system ({@code h2}, {@code derby},
 * {@code postgresql}, ...), the database name, the server's host and port when it is reached over
 * the network, and the metrics target, the URL without {@code jdbc:}, credentials and properties
 * (e.g. {@code h2:mem:test}, {@code derby://localhost:1527/metadata.db}).
 */
public final class DbInfo {

    public static final DbInfo UNKNOWN = new DbInfo("other_sql", null, null, -1, "jdbc");

    private static final int MAX_TARGET = 200;

    public final String system;
    public final String name;
    public final String host;
    public final int port;
    public final String target;
    private volatile StatementInfo unregistered;

    DbInfo(String system, String name, String host, int port, String target) {
        this.system = system;
        this.name = name;
        this.host = host;
        this.port = port;
        this.target = target;
    }

    public static DbInfo fromUrl(String url) {
        if (url == null || !url.regionMatches(true, 0, "jdbc:", 0, 5)) {
            return UNKNOWN;
        }
        String rest = url.substring(5);
        int colon = rest.indexOf(':');
        if (colon <= 0) {
            return UNKNOWN;
        }
        String system = rest.substring(0, colon).toLowerCase(java.util.Locale.ROOT);
        rest = rest.substring(colon + 1);
        if (system.equals("oracle")) {
            return oracle(rest);
        }
        if (system.equals("log4jdbc") || system.equals("p6spy") || system.equals("otel")) {
            return fromUrl("jdbc:" + rest);
        }
        String host = null;
        int port = -1;
        String name;
        String prefix = "";
        // H2/HSQLDB put a protocol before the address: jdbc:h2:tcp://host/db, jdbc:hsqldb:hsql://host/db
        int slashes = rest.indexOf("//");
        if (slashes >= 0 && slashes <= 6 && (slashes == 0 || rest.charAt(slashes - 1) == ':')) {
            prefix = rest.substring(0, slashes);
            String afterSlashes = rest.substring(slashes + 2);
            int end = indexOfAny(afterSlashes, "/;?");
            String authority = end < 0 ? afterSlashes : afterSlashes.substring(0, end);
            int at = authority.lastIndexOf('@');
            if (at >= 0) {
                authority = authority.substring(at + 1);
            }
            int comma = authority.indexOf(',');
            if (comma >= 0) {
                authority = authority.substring(0, comma);
            }
            int portColon = authority.lastIndexOf(':');
            if (portColon > 0 && authority.indexOf(']') < portColon) {
                host = authority.substring(0, portColon);
                port = parsePort(authority.substring(portColon + 1));
            } else {
                host = authority;
            }
            String path = end < 0 || afterSlashes.charAt(end) != '/' ? "" : afterSlashes.substring(end + 1);
            name = stripProperties(path);
        } else {
            name = stripProperties(rest);
        }
        if (name != null && name.isEmpty()) {
            name = null;
        }
        StringBuilder target = new StringBuilder(system).append(':').append(prefix);
        if (host != null) {
            target.append("//").append(host);
            if (port > 0) {
                target.append(':').append(port);
            }
            if (name != null) {
                target.append('/');
            }
        }
        if (name != null) {
            target.append(name);
        }
        return new DbInfo(system, name, host == null || host.isEmpty() ? null : host, port, cap(target.toString()));
    }

    /** jdbc:oracle:thin:@host:port:sid, jdbc:oracle:thin:@//host:port/service, or a TNS description. */
    private static DbInfo oracle(String rest) {
        int at = rest.indexOf('@');
        String address = at < 0 ? rest : rest.substring(at + 1);
        if (address.startsWith("//")) {
            address = address.substring(2);
        }
        if (address.startsWith("(")) {
            return new DbInfo("oracle", null, null, -1, "oracle");
        }
        String[] parts = address.split("[:/]");
        String host = parts.length > 0 && !parts[0].isEmpty() ? parts[0] : null;
        int port = parts.length > 1 ? parsePort(parts[1]) : -1;
        String name = parts.length > 2 ? stripProperties(parts[parts.length - 1]) : null;
        String target = "oracle:" + (host == null ? "" : "//" + host + (port > 0 ? ":" + port : "")
                + (name == null ? "" : "/" + name));
        return new DbInfo("oracle", name, host, port, cap(target));
    }

    private static String stripProperties(String s) {
        int end = indexOfAny(s, ";?&");
        return end < 0 ? s : s.substring(0, end);
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    private static int parsePort(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String cap(String s) {
        return s.length() <= MAX_TARGET ? s : s.substring(0, MAX_TARGET);
    }

    /** A shared entry for statements of this database that the agent could not remember. */
    StatementInfo unregistered() {
        StatementInfo info = unregistered;
        if (info == null) {
            info = new StatementInfo(this, null);
            unregistered = info;
        }
        return info;
    }

    @Override
    public String toString() {
        return target;
    }
}
