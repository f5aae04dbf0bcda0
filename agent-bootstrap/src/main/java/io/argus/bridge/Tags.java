package io.argus.bridge;

/** Tag keys shared by the agent and the collector. */
public final class Tags {
    public static final String HTTP_METHOD = "http.method";
    /** The raw request path (OpenTelemetry's {@code url.path}, formerly {@code http.target}). */
    public static final String HTTP_PATH = "http.path";
    /** The route the request matched: a framework's template, or the path with id-like segments as {@code {id}}. */
    public static final String HTTP_ROUTE = "http.route";
    public static final String HTTP_URL = "http.url";
    public static final String HTTP_STATUS_CODE = "http.status_code";
    public static final String PEER = "peer";
    public static final String ERROR = "error";
    public static final String DB_STATEMENT = "db.statement";
    public static final String DB_SYSTEM = "db.system";
    public static final String DB_NAME = "db.name";
    public static final String DB_OPERATION = "db.operation";
    /** A MongoDB collection (OpenTelemetry's {@code db.collection.name}). */
    public static final String DB_COLLECTION = "db.collection.name";
    public static final String CODE_METHOD = "code.method";
    /** Messaging spans (OpenTelemetry's messaging conventions): the system, the topic or queue, the operation. */
    public static final String MESSAGING_SYSTEM = "messaging.system";
    public static final String MESSAGING_DESTINATION = "messaging.destination.name";
    public static final String MESSAGING_OPERATION = "messaging.operation";
    /** A CONSUMER span that processed several messages at once: how many. */
    public static final String MESSAGING_BATCH_COUNT = "messaging.batch.message_count";
    /** RPC spans (OpenTelemetry's RPC conventions): the system, service, method and the gRPC status code. */
    public static final String RPC_SYSTEM = "rpc.system";
    public static final String RPC_SERVICE = "rpc.service";
    public static final String RPC_METHOD = "rpc.method";
    public static final String RPC_GRPC_STATUS_CODE = "rpc.grpc.status_code";

    private Tags() {
    }
}
