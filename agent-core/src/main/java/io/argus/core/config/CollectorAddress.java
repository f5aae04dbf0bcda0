package io.argus.core.config;

/** One {@code host:port} entry of {@code argus.collector.address}. */
public final class CollectorAddress {

    public final String host;
    public final int port;

    public CollectorAddress(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /**
     * {@code host:port} with a port from 1 to 65535 and a non-empty host (white space around either is
     * ignored), or null.
     */
    static CollectorAddress parse(String entry) {
        String text = entry.trim();
        int colon = text.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        String host = text.substring(0, colon).trim();
        int port = parsePort(text.substring(colon + 1));
        return host.isEmpty() || port < 0 ? null : new CollectorAddress(host, port);
    }

    private static int parsePort(String text) {
        try {
            int port = Integer.parseInt(text.trim());
            return port > 0 && port < 65536 ? port : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
