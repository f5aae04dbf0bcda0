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

    private Tags() {
    }
}
