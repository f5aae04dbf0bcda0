package io.argus.collector;

import io.argus.collector.alerting.Alerting;
import io.argus.collector.alerting.rules.RuleFileException;
import io.argus.collector.http.HttpApiServer;
import io.argus.collector.ingest.AgentRegistry;
import io.argus.collector.ingest.ClockWindow;
import io.argus.collector.ingest.IngestMetrics;
import io.argus.collector.ingest.IngestServer;
import io.argus.collector.otlp.OtlpHttpServer;
import io.argus.collector.otlp.OtlpGrpcServer;
import io.argus.collector.security.ServerTls;
import io.argus.collector.storage.AgentDirectory;
import io.argus.collector.storage.IngestSink;
import io.argus.collector.storage.QueryStore;
import io.argus.collector.storage.Retention;
import io.argus.collector.storage.Storage;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.argus.collector.kafka.KafkaSink;
import io.argus.collector.storage.druid.DruidStorage;
import io.argus.collector.storage.duckdb.DuckDbStorage;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A running collector: the shared runtime (event loops, meters, the agent registry, housekeeping) of one
 * {@link CollectorRole}, which opens the listeners: by default the embedded collector (agent and OTLP ingest into
 * DuckDB, the HTTP query API and web UI); with {@link CollectorConfig#kafka()} an ingest-only node (what it accepts
 * goes to Kafka, nothing is stored, the API's data endpoints answer 503); with {@link CollectorConfig#druidQuery()}
 * a query node (the API and UI answer from Druid SQL, no ingest or OTLP port).
 *
 * <pre>{@code
 * try (Collector c = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0).dataDir(dir).build())) {
 *     int agentPort = c.ingestPort();
 *     ...
 * }
 * }</pre>
 */
public final class Collector implements AutoCloseable, CollectorWiring {
    private static final Logger LOG = Logger.getLogger(Collector.class.getName());

    private final CollectorConfig config;
    private final PrometheusMeterRegistry meters;
    private final JvmGcMetrics gcMetrics;
    /** Embedded, ingest-only or query: the stores, and which listeners they take. */
    private final CollectorRole role;
    private final AgentRegistry registry;
    private final IngestMetrics ingestMetrics;
    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ScheduledExecutorService housekeeping;
    private final ScheduledExecutorService retention;
    private IngestServer ingest;
    private HttpApiServer http;
    private OtlpHttpServer otlp;
    private OtlpGrpcServer otlpGrpc;
    /** Rules, evaluation and notifications; {@code null} without {@link CollectorConfig#alertRules()}. */
    private Alerting alerting;
    private volatile boolean closed;

    private Collector(CollectorConfig config) {
        this.config = config;
        this.meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try {
            this.role = openRole(config, meters);
        } catch (RuntimeException e) {
            meters.close();
            throw e;
        }
        new JvmMemoryMetrics().bindTo(meters);
        new JvmThreadMetrics().bindTo(meters);
        new ProcessorMetrics().bindTo(meters);
        new UptimeMetrics().bindTo(meters);
        this.gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(meters);
        this.ingestMetrics = new IngestMetrics(meters);
        this.registry = new AgentRegistry();
        this.boss = new NioEventLoopGroup(1, new DefaultThreadFactory("argus-accept", true));
        this.workers = new NioEventLoopGroup(Math.max(2, Runtime.getRuntime().availableProcessors()),
                new DefaultThreadFactory("argus-io", true));
        this.housekeeping = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "argus-housekeeping");
            t.setDaemon(true);
            return t;
        });
        // its own thread: a long delete never holds up saving agent state
        this.retention = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "argus-retention");
            t.setDaemon(true);
            t.setPriority(Thread.MIN_PRIORITY);
            return t;
        });
    }

    /** The role {@code config} names, with its stores opened. */
    private static CollectorRole openRole(CollectorConfig config, MeterRegistry meters) {
        if (config.kafka() != null) {
            return new IngestOnlyRole(KafkaSink.start(config.kafka(), meters));
        }
        if (config.druidQuery() != null) {
            return new QueryOnlyRole(DruidStorage.open(config.druidQuery()));
        }
        return new EmbeddedRole(DuckDbStorage.open(config.dataDir(), config.storeQueueSpans(), config.duckDb(),
                meters));
    }

    /**
     * Starts a collector and returns once both servers listen.
     *
     * @throws IllegalStateException if a port cannot be bound or the data directory cannot be opened
     *                               (for example because another collector holds it)
     */
    public static Collector start(CollectorConfig config) {
        Collector c;
        try {
            c = new Collector(config);
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot start the collector: " + e.getMessage(), e);
        }
        try {
            ServerTls tls = config.tls() == null ? null : ServerTls.create(config.tls(), c.meters);
            c.role.start(c, tls);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            c.close();
            throw new IllegalStateException("interrupted while starting the collector", e);
        } catch (Exception e) { // also the checked BindException that Netty's sync() rethrows
            c.close();
            throw new IllegalStateException("cannot start the collector: " + e, e);
        }
        String scheme = config.tls() == null ? "http://" : "https://";
        LOG.info("Argus collector started: "
                + (c.ingest == null ? "" : "ingest " + hostPort(config.bind(), c.ingestPort())
                + (config.tls() == null ? "" : " (TLS)") + ", ")
                + "http " + c.httpUrl() + ", "
                + (c.otlp == null ? "" : "otlp " + scheme + hostPort(config.bind(), c.otlpHttpPort()) + "/v1/, ")
                + (c.otlpGrpc == null ? "" : "otlp/grpc " + hostPort(config.bind(), c.otlpGrpcPort()) + ", ")
                + (c.alerting == null ? "" : "alert rules " + config.alertRules() + ", ")
                + c.role.describe(config));
        warnAboutExposure(config);
        return c;
    }

    // ---------------------------------------------------------------- what the roles open

    @Override
    public AgentRegistry registry() {
        return registry;
    }

    @Override
    public void openIngest(IngestSink sink, ClockWindow window, ServerTls tls) throws InterruptedException {
        ingest = IngestServer.start(config.bind(), config.ingestPort(), boss, workers, config.maxFrameBytes(),
                config.token(), config.maxBatchSpans(), config.idleTimeout(), config.ingestLimits(), window, sink,
                registry, ingestMetrics, meters, tls);
    }

    @Override
    public void openHttp(QueryStore queries, IngestSink sink, AgentDirectory agents, ServerTls tls) throws InterruptedException {
        http = HttpApiServer.start(config.bind(), config.httpPort(), boss, workers, queries, sink, agents, alerting,
                meters, tls, config.httpCredentials(), config.httpLimits());
    }

    @Override
    public void openOtlp(IngestSink sink, ClockWindow window, ServerTls tls) throws InterruptedException {
        if (config.otlpHttpPort() != 0) {
            otlp = OtlpHttpServer.start(config.bind(), Math.max(0, config.otlpHttpPort()), boss, workers,
                    config.maxOtlpBodyBytes(), sink, registry, meters, tls, config.httpCredentials(),
                    config.httpLimits(), window);
        }
        if (config.otlpGrpcPort() != 0) {
            otlpGrpc = OtlpGrpcServer.start(config.bind(), Math.max(0, config.otlpGrpcPort()), boss, workers,
                    config.maxOtlpBodyBytes(), sink, registry, meters, tls, config.httpCredentials(), window,
                    config.httpLimits().otlpStoreWait().toMillis());
        }
    }

    @Override
    public void startAlerting(QueryStore queries, AgentDirectory agents) throws RuleFileException {
        if (config.alertRules() != null) {
            alerting = Alerting.start(config.alertRules(), queries, agents, meters, this::httpUrl);
        }
    }

    @Override
    public void keepAgentsIn(Storage storage) {
        housekeeping.scheduleWithFixedDelay(() -> saveAgents(storage), 1, 1, TimeUnit.SECONDS);
    }

    /** What a collector reachable from other hosts still leaves open; one WARN line each. */
    private static void warnAboutExposure(CollectorConfig config) {
        if (CollectorConfig.isLoopback(config.bind())) {
            return;
        }
        if (config.tls() == null) {
            LOG.warning("listening on " + config.bind() + " without TLS: API credentials, agent tokens and"
                    + " telemetry cross the network in plain text (see --tls-cert/--tls-key or --tls-keystore)");
        }
        if (config.token() == null) {
            LOG.warning("listening on " + config.bind() + " without an agent token: anyone who can reach the ingest"
                    + " port can send data (see --token)");
        }
    }

    private static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public ClockWindow clockWindow(boolean aging) {
        return new ClockWindow(Clock.systemUTC(), config.ingestLimits().maxFutureSkew(),
                aging ? config.retentionSpans() : Duration.ZERO, aging ? config.retentionMetrics() : Duration.ZERO,
                meters);
    }

    @Override
    public void scheduleRetention(Storage storage) {
        Retention pass = new Retention(storage, Clock.systemUTC(), config.retentionSpans(), config.retentionMetrics(),
                meters);
        if (!pass.keepsEverything()) {
            long every = config.retentionInterval().toMillis();
            retention.scheduleWithFixedDelay(pass, 0, every, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void saveAgents(Storage storage) {
        try {
            storage.saveAgents(registry.drainDirty());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "saving agent state failed", e);
        }
    }

    /** The port agents connect to (the real one when the config asked for 0); 0 on a query node. */
    public int ingestPort() {
        return ingest == null ? 0 : ingest.port();
    }

    /** The port of the HTTP API and UI (the real one when the config asked for 0). */
    public int httpPort() {
        return http.port();
    }

    /** The OTLP/HTTP port (the real one when the config asked for any free port); 0 when the receiver is off. */
    public int otlpHttpPort() {
        return otlp == null ? 0 : otlp.port();
    }

    /** The OTLP/gRPC port (the real one when the config asked for any free port); 0 when the receiver is off. */
    public int otlpGrpcPort() {
        return otlpGrpc == null ? 0 : otlpGrpc.port();
    }

    /** Base URL of the HTTP API and UI, e.g. {@code http://127.0.0.1:9897/} ({@code https://} with TLS). */
    public String httpUrl() {
        return (config.tls() == null ? "http://" : "https://") + hostPort(config.bind(), httpPort()) + "/";
    }

    public CollectorConfig config() {
        return config;
    }

    /**
     * Waits until every batch the collector has accepted so far is written and visible to queries. Frames an
     * agent has sent but the collector has not read yet are not covered; poll the API for those.
     *
     * @return {@code false} on timeout
     */
    public boolean flush(Duration timeout) {
        return role.sink() == null || role.sink().flush(timeout);
    }

    /** Where this collector hands what it accepts (the embedded storage, or the Kafka publisher); null on a query node. */
    public IngestSink sink() {
        return role.sink();
    }

    /** Ingest counters (frames, rejections, refused connections). */
    public IngestMetrics ingestMetrics() {
        return ingestMetrics;
    }

    /** Stops both servers, writes out everything accepted and closes the storage. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        if (ingest != null) {
            // what agents sent is handed on and acknowledged before their connections close: it is not sent again
            ingest.stopReading();
            if (role.sink() != null) {
                role.sink().flush(Duration.ofSeconds(5));
            }
            ingest.close();
        }
        if (http != null) {
            http.close();
        }
        if (otlp != null) {
            otlp.close();
        }
        if (otlpGrpc != null) {
            otlpGrpc.close();
        }
        if (alerting != null) {
            alerting.close();
        }
        housekeeping.shutdownNow();
        retention.shutdownNow();
        try {
            // a pass in flight finishes its statement before the storage closes under it
            retention.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (EventLoopGroup g : List.of(boss, workers)) {
            g.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        role.close(this);
        gcMetrics.close();
        meters.close();
        LOG.info("Argus collector stopped");
    }
}
