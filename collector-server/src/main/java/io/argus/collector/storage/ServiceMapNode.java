package io.argus.collector.storage;

/**
 * A box on the service map.
 *
 * @param id   what edges refer to: the service name for a service, {@code db:<system>/<name>} for a database,
 *             {@code ext:<host:port>} for an external host (a client call nobody traced on the other side),
 *             {@code topic:<system>/<destination>} for a message topic (between its producers and consumers)
 * @param name what to show
 * @param type {@code service}, {@code topic}, {@code database} or {@code external}
 */
public record ServiceMapNode(String id, String name, String type) {
    public static final String SERVICE = "service";
    public static final String DATABASE = "database";
    public static final String EXTERNAL = "external";
    public static final String TOPIC = "topic";
    /** The id prefix of a database node. */
    public static final String DB_PREFIX = "db:";
    /** The id prefix of an external host node. */
    public static final String EXTERNAL_PREFIX = "ext:";
    /** The id prefix of a topic node: {@code topic:kafka/orders}. */
    public static final String TOPIC_PREFIX = "topic:";

    /** The node of {@code id}, named without its type prefix; an unknown type is a service. */
    public static ServiceMapNode of(String id, String type) {
        if (DATABASE.equals(type) && id.startsWith(DB_PREFIX)) {
            return new ServiceMapNode(id, id.substring(DB_PREFIX.length()), type);
        }
        if (TOPIC.equals(type) && id.startsWith(TOPIC_PREFIX)) {
            return new ServiceMapNode(id, id.substring(TOPIC_PREFIX.length()), type);
        }
        if (EXTERNAL.equals(type) && id.startsWith(EXTERNAL_PREFIX)) {
            return new ServiceMapNode(id, id.substring(EXTERNAL_PREFIX.length()), type);
        }
        return new ServiceMapNode(id, id, SERVICE);
    }

    /** The type of a node that is the source of an edge: a topic (its consumers' edges) or a service. */
    public static String sourceType(String id) {
        return id.startsWith(TOPIC_PREFIX) ? TOPIC : SERVICE;
    }

    /** Services first, then topics, then databases, then external hosts. */
    int typeOrder() {
        return switch (type) {
            case SERVICE -> 0;
            case TOPIC -> 1;
            case DATABASE -> 2;
            default -> 3;
        };
    }
}
