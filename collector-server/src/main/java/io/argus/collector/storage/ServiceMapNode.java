package io.argus.collector.storage;

/**
 * A box on the service map.
 *
 * @param id   what edges refer to: the service name for a service, {@code db:<system>/<name>} for a database,
 *             {@code ext:<host:port>} for an external host (a client call nobody traced on the other side)
 * @param name what to show
 * @param type {@code service}, {@code database} or {@code external}
 */
public record ServiceMapNode(String id, String name, String type) {
    public static final String SERVICE = "service";
    public static final String DATABASE = "database";
    public static final String EXTERNAL = "external";
}
