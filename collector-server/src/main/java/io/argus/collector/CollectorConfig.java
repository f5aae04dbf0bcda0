package io.argus.collector;

import io.argus.collector.kafka.KafkaSettings;
import io.argus.collector.security.HttpCredentials;
import io.argus.collector.security.TlsSettings;
import io.argus.collector.storage.druid.DruidSettings;
import io.argus.collector.storage.duckdb.DuckDbSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one collector. Immutable; build one with {@link #builder()}.
 *
 * <p>Port {@code 0} means "pick a free ephemeral port"; read the real one back from
 * {@link Collector#ingestPort()} / {@link Collector#httpPort()}. The OTLP/HTTP port is the exception: there
 * {@code 0} switches the receiver off and {@link #ANY_FREE_PORT} picks a free port
 * ({@link Collector#otlpHttpPort()}).
 *
 * <p>Retention ages of {@link Duration#ZERO} keep that kind of data forever.
 *
 * <p>Without {@link #httpCredentials()} the HTTP API, UI and OTLP receiver are open to whoever can connect, so
 * {@link #bind()} must then be a loopback address; anything else is refused. {@link #tls()} ({@code null} = plain
 * text) applies to every listener.
 *
 * <p>With {@link #kafka()} set the collector is an ingest-only node ({@code --storage kafka}): it publishes what it
 * accepts to Kafka and keeps no data (no data directory, no retention); without it ({@code null}, the default) it
 * stores everything in the embedded database. With {@link #druidQuery()} set it is a query node of a scale-out
 * deployment: it answers the API from Druid and neither ingests nor opens a data directory. At most one of the two.
 */
public record CollectorConfig(
        String bind,
        int ingestPort,
        int httpPort,
        Path dataDir,
        int maxFrameBytes,
        String token,
        int maxBatchSpans,
        Duration idleTimeout,
        int storeQueueSpans,
        int otlpHttpPort,
        int maxOtlpBodyBytes,
        Duration retentionSpans,
        Duration retentionMetrics,
        Duration retentionInterval,
        HttpCredentials httpCredentials,
        TlsSettings tls,
        KafkaSettings kafka,
        DruidSettings druidQuery,
        IngestLimits ingestLimits,
        HttpLimits httpLimits,
        int otlpGrpcPort,
        Path alertRules,
        DuckDbSettings duckDb) {

    public static final String DEFAULT_BIND = "127.0.0.1";
    public static final int DEFAULT_INGEST_PORT = 9898;
    public static final int DEFAULT_HTTP_PORT = 9897;
    public static final Path DEFAULT_DATA_DIR = Path.of("./data");
    public static final int DEFAULT_MAX_FRAME_BYTES = 4 * 1024 * 1024;
    public static final int DEFAULT_MAX_BATCH_SPANS = 10_000;
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);
    public static final int DEFAULT_STORE_QUEUE_SPANS = 262_144;
    /** OTLP/HTTP port: the one the OpenTelemetry specification assigns. */
    public static final int DEFAULT_OTLP_HTTP_PORT = 4318;
    /** For {@link Builder#otlpHttpPort(int)}: listen on any free port (0 there means off). */
    public static final int ANY_FREE_PORT = -1;
    /** OTLP/gRPC port: the one the OpenTelemetry specification assigns. */
    public static final int DEFAULT_OTLP_GRPC_PORT = 4317;
    public static final int DEFAULT_MAX_OTLP_BODY_BYTES = 4 * 1024 * 1024;
    public static final Duration DEFAULT_RETENTION_SPANS = Duration.ofDays(7);
    public static final Duration DEFAULT_RETENTION_METRICS = Duration.ofDays(30);
    public static final Duration DEFAULT_RETENTION_INTERVAL = Duration.ofHours(1);

    public CollectorConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(retentionSpans, "retentionSpans");
        Objects.requireNonNull(retentionMetrics, "retentionMetrics");
        Objects.requireNonNull(retentionInterval, "retentionInterval");
        if (bind.isBlank()) {
            throw new IllegalArgumentException("bind must not be blank");
        }
        checkPort("ingestPort", ingestPort);
        checkPort("httpPort", httpPort);
        if (maxFrameBytes < 64) {
            throw new IllegalArgumentException("maxFrameBytes must be at least 64, got " + maxFrameBytes);
        }
        if (maxBatchSpans < 1) {
            throw new IllegalArgumentException("maxBatchSpans must be positive, got " + maxBatchSpans);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive, got " + idleTimeout);
        }
        if (storeQueueSpans < 1) {
            throw new IllegalArgumentException("storeQueueSpans must be positive, got " + storeQueueSpans);
        }
        Objects.requireNonNull(duckDb, "duckDb");
        if (otlpHttpPort != ANY_FREE_PORT) {
            checkPort("otlpHttpPort", otlpHttpPort);
        }
        if (otlpGrpcPort != ANY_FREE_PORT) {
            checkPort("otlpGrpcPort", otlpGrpcPort);
        }
        if (alertRules != null && kafka != null) {
            throw new IllegalArgumentException("alert rules need a collector that answers queries: an ingest-only node"
                    + " (--storage kafka) cannot evaluate them; give them to the query node");
        }
        if (maxOtlpBodyBytes < 64) {
            throw new IllegalArgumentException("maxOtlpBodyBytes must be at least 64, got " + maxOtlpBodyBytes);
        }
        if (kafka != null && druidQuery != null) {
            throw new IllegalArgumentException("a collector is either an ingest-only node (--storage kafka) or a query"
                    + " node (--query druid), not both");
        }
        if (retentionSpans.isNegative() || retentionMetrics.isNegative()) {
            throw new IllegalArgumentException("retention ages must not be negative");
        }
        if (retentionInterval.isNegative() || retentionInterval.isZero()) {
            throw new IllegalArgumentException("retentionInterval must be positive, got " + retentionInterval);
        }
        if (token != null && token.isEmpty()) {
            token = null;
        }
        if (ingestLimits == null) {
            ingestLimits = IngestLimits.DEFAULTS;
        }
        if (httpLimits == null) {
            httpLimits = HttpLimits.DEFAULTS;
        }
        if (ingestLimits.maxBufferedBytes() < maxFrameBytes + 4L) {
            throw new IllegalArgumentException("the buffered bytes limit (" + ingestLimits.maxBufferedBytes()
                    + ") must hold at least one frame of maxFrameBytes (" + maxFrameBytes + ")");
        }
        if (httpCredentials == null) {
            httpCredentials = HttpCredentials.NONE;
        }
        if (!httpCredentials.required() && !isLoopback(bind)) {
            throw new IllegalArgumentException("refusing to listen on " + bind + " without an API credential: anyone"
                    + " who can reach it could read all traces; set --api-token-file (or ARGUS_API_TOKEN) or"
                    + " --api-user with --api-password-file (or ARGUS_API_PASSWORD), or bind to 127.0.0.1");
        }
    }

    /** True for a loopback address or a name resolving to one ({@code 127.0.0.1}, {@code ::1}, {@code localhost}). */
    public static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static void checkPort(String name, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(name + " must be within 0..65535, got " + port);
        }
    }

    /**
     * The defaults: ingest 127.0.0.1:9898, HTTP 9897, OTLP/HTTP 4318, data in ./data, 4 MiB frames, no token,
     * spans kept 7 days and metrics 30.
     */
    public static CollectorConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts from this config's values. */
    public Builder toBuilder() {
        return new Builder()
                .bind(bind)
                .ingestPort(ingestPort)
                .httpPort(httpPort)
                .dataDir(dataDir)
                .maxFrameBytes(maxFrameBytes)
                .token(token)
                .maxBatchSpans(maxBatchSpans)
                .idleTimeout(idleTimeout)
                .storeQueueSpans(storeQueueSpans)
                .otlpHttpPort(otlpHttpPort)
                .maxOtlpBodyBytes(maxOtlpBodyBytes)
                .retentionSpans(retentionSpans)
                .retentionMetrics(retentionMetrics)
                .retentionInterval(retentionInterval)
                .httpCredentials(httpCredentials)
                .tls(tls)
                .kafka(kafka)
                .druidQuery(druidQuery)
                .ingestLimits(ingestLimits)
                .httpLimits(httpLimits)
                .otlpGrpcPort(otlpGrpcPort)
                .alertRules(alertRules)
                .duckDb(duckDb);
    }

    /** Hides the token. */
    @Override
    public String toString() {
        return "CollectorConfig[bind=" + bind + ", ingestPort=" + ingestPort + ", httpPort=" + httpPort
                + ", dataDir=" + dataDir + ", maxFrameBytes=" + maxFrameBytes
                + ", token=" + (token == null ? "none" : "***") + ", maxBatchSpans=" + maxBatchSpans
                + ", idleTimeout=" + idleTimeout + ", storeQueueSpans=" + storeQueueSpans
                + ", duckDb=" + duckDb
                + ", otlpHttpPort=" + otlpHttpPort + ", otlpGrpcPort=" + otlpGrpcPort
                + ", maxOtlpBodyBytes=" + maxOtlpBodyBytes
                + ", retentionSpans=" + retentionSpans + ", retentionMetrics=" + retentionMetrics
                + ", retentionInterval=" + retentionInterval + ", httpCredentials=" + httpCredentials
                + ", tls=" + (tls == null ? "off" : tls) + ", kafka=" + (kafka == null ? "off" : kafka)
                + (druidQuery == null ? "" : ", druidQuery=" + druidQuery) + ", ingestLimits=" + ingestLimits
                + ", httpLimits=" + httpLimits + (alertRules == null ? "" : ", alertRules=" + alertRules) + "]";
    }

    public static final class Builder {
        private String bind = DEFAULT_BIND;
        private int ingestPort = DEFAULT_INGEST_PORT;
        private int httpPort = DEFAULT_HTTP_PORT;
        private Path dataDir = DEFAULT_DATA_DIR;
        private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
        private String token;
        private int maxBatchSpans = DEFAULT_MAX_BATCH_SPANS;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private int storeQueueSpans = DEFAULT_STORE_QUEUE_SPANS;
        private DuckDbSettings duckDb = DuckDbSettings.DEFAULTS;
        private int otlpHttpPort = DEFAULT_OTLP_HTTP_PORT;
        private int maxOtlpBodyBytes = DEFAULT_MAX_OTLP_BODY_BYTES;
        private Duration retentionSpans = DEFAULT_RETENTION_SPANS;
        private Duration retentionMetrics = DEFAULT_RETENTION_METRICS;
        private Duration retentionInterval = DEFAULT_RETENTION_INTERVAL;
        private HttpCredentials httpCredentials = HttpCredentials.NONE;
        private TlsSettings tls;
        private KafkaSettings kafka;
        private DruidSettings druidQuery;
        private IngestLimits ingestLimits = IngestLimits.DEFAULTS;
        private HttpLimits httpLimits = HttpLimits.DEFAULTS;
        private int otlpGrpcPort;
        private Path alertRules;

        private Builder() {
        }

        /** Address every listener binds to (default 127.0.0.1); other than loopback needs {@link #httpCredentials}. */
        public Builder bind(String bind) {
            this.bind = bind;
            return this;
        }

        /** Agent ingest TCP port (default 9898, 0 = ephemeral). */
        public Builder ingestPort(int ingestPort) {
            this.ingestPort = ingestPort;
            return this;
        }

        /** HTTP API and UI port (default 9897, 0 = ephemeral). */
        public Builder httpPort(int httpPort) {
            this.httpPort = httpPort;
            return this;
        }

        /** Directory of the embedded database (default ./data); created when missing. */
        public Builder dataDir(Path dataDir) {
            this.dataDir = dataDir;
            return this;
        }

        /** Largest accepted frame body in bytes (default 4 MiB). */
        public Builder maxFrameBytes(int maxFrameBytes) {
            this.maxFrameBytes = maxFrameBytes;
            return this;
        }

        /** Shared secret the handshake must carry; {@code null} or empty disables the check. */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        /** Most spans (and most metric entries) accepted in one batch (default 10000). */
        public Builder maxBatchSpans(int maxBatchSpans) {
            this.maxBatchSpans = maxBatchSpans;
            return this;
        }

        /** An ingest connection that sends nothing for this long is closed (default 5 min). */
        public Builder idleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
            return this;
        }

        /**
         * Capacity of the storage write queue, in rows (spans, metric cells, gauges). When it is full
         * the collector stops reading from agent sockets until the writer catches up (TCP backpressure).
         */
        public Builder storeQueueSpans(int storeQueueSpans) {
            this.storeQueueSpans = storeQueueSpans;
            return this;
        }

        /** The embedded database's engine settings (default {@link DuckDbSettings#DEFAULTS}). */
        public Builder duckDb(DuckDbSettings duckDb) {
            this.duckDb = duckDb;
            return this;
        }

        /**
         * OTLP/HTTP receiver port (default 4318); {@code 0} switches the receiver off,
         * {@link #ANY_FREE_PORT} picks a free port.
         */
        public Builder otlpHttpPort(int otlpHttpPort) {
            this.otlpHttpPort = otlpHttpPort;
            return this;
        }

        /** Largest accepted OTLP request body in bytes, after decompression (default 4 MiB); larger ones get 413. */
        public Builder maxOtlpBodyBytes(int maxOtlpBodyBytes) {
            this.maxOtlpBodyBytes = maxOtlpBodyBytes;
            return this;
        }

        /** Spans that started longer ago than this are deleted (default 7 days, {@link Duration#ZERO} = never). */
        public Builder retentionSpans(Duration retentionSpans) {
            this.retentionSpans = retentionSpans;
            return this;
        }

        /** Metric rows older than this are deleted (default 30 days, {@link Duration#ZERO} = never). */
        public Builder retentionMetrics(Duration retentionMetrics) {
            this.retentionMetrics = retentionMetrics;
            return this;
        }

        /** How often the retention pass runs; it also runs once at start (default 1 hour). */
        public Builder retentionInterval(Duration retentionInterval) {
            this.retentionInterval = retentionInterval;
            return this;
        }

        /**
         * What the HTTP API, UI, {@code /metrics} and OTLP/HTTP require in {@code Authorization} (default
         * {@link HttpCredentials#NONE}: nothing, allowed on loopback only).
         */
        public Builder httpCredentials(HttpCredentials httpCredentials) {
            this.httpCredentials = httpCredentials;
            return this;
        }

        /** TLS for every listener ({@code null}, the default: plain text). */
        public Builder tls(TlsSettings tls) {
            this.tls = tls;
            return this;
        }

        /** Publish to Kafka as an ingest-only node instead of storing ({@code null}, the default: embedded). */
        public Builder kafka(KafkaSettings kafka) {
            this.kafka = kafka;
            return this;
        }

        /**
         * Makes the collector a query node answering from Druid ({@code --query druid}); {@code null}, the default,
         * keeps the embedded store.
         */
        public Builder druidQuery(DruidSettings druidQuery) {
            this.druidQuery = druidQuery;
            return this;
        }

        /** Connection caps, handshake and frame deadlines, buffered bytes, clock window of agent ingest. */
        public Builder ingestLimits(IngestLimits ingestLimits) {
            this.ingestLimits = ingestLimits;
            return this;
        }

        /** Read timeout, request sizes, OTLP wait and query queue of the HTTP listeners. */
        public Builder httpLimits(HttpLimits httpLimits) {
            this.httpLimits = httpLimits;
            return this;
        }

        /**
         * OTLP/gRPC receiver port: {@code 0}, the builder's default, switches the receiver off (the command line's
         * default is {@link #DEFAULT_OTLP_GRPC_PORT}); {@link #ANY_FREE_PORT} picks a free port.
         */
        public Builder otlpGrpcPort(int otlpGrpcPort) {
            this.otlpGrpcPort = otlpGrpcPort;
            return this;
        }

        /** The alert rules file, read at start and whenever it changes ({@code null}, the default: no alerting). */
        public Builder alertRules(Path alertRules) {
            this.alertRules = alertRules;
            return this;
        }

        public CollectorConfig build() {
            return new CollectorConfig(bind, ingestPort, httpPort, dataDir, maxFrameBytes, token, maxBatchSpans,
                    idleTimeout, storeQueueSpans, otlpHttpPort, maxOtlpBodyBytes, retentionSpans, retentionMetrics,
                    retentionInterval, httpCredentials, tls, kafka, druidQuery, ingestLimits, httpLimits, otlpGrpcPort,
                    alertRules, duckDb);
        }
    }
}
