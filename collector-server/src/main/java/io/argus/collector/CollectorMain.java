package io.argus.collector;

import io.argus.cli.CommandLineSpec;
import io.argus.collector.kafka.KafkaSettings;
import io.argus.collector.security.HttpCredentials;
import io.argus.collector.security.TlsSettings;
import io.argus.collector.storage.druid.DruidSettings;
import io.argus.collector.storage.duckdb.DuckDbSettings;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Command line entry point. Runs in the foreground until SIGTERM/SIGINT, then shuts down cleanly.
 * Exit status: 0 after a clean stop, {@code --help} or {@code --completion}, 1 when the collector cannot start, 2 for
 * bad flags.
 */
public final class CollectorMain {
    static final String USAGE = """
            Usage: argus-collector [options]

              --ingest-port PORT       agent ingest TCP port (default 9898, 0 = any free port)
              --http-port PORT         HTTP API and web UI port (default 9897, 0 = any free port)
              --bind ADDRESS           address every listener binds to (default 127.0.0.1); anything
                                       but loopback needs an API credential
              --data-dir DIR           storage directory (default ./data)
              --storage-threads N      the embedded database's threads (default 1: each statement on
                                       the thread that issued it; more speed up large queries)
              --storage-memory-mb N    the embedded database's memory limit in MiB (default 2048);
                                       larger queries spill to the data folder's tmp
              --max-frame-bytes N      largest accepted agent frame in bytes (default 4194304)
              --max-batch-spans N      most spans or metric entries in one batch (default 10000)
              --token TOKEN            require agents to present this token in their handshake
                                       (or set ARGUS_COLLECTOR_TOKEN)
              --otlp-http-port PORT    OTLP/HTTP receiver port, POST /v1/traces and /v1/metrics
                                       (default 4318, 0 = off)
              --otlp-grpc-port PORT    OTLP/gRPC receiver port, TraceService and MetricsService
                                       (default 4317, 0 = off)
              --otlp-max-body-bytes N  largest accepted OTLP request body (default 4194304)
              --alert-rules FILE       alert rules and notification channels (YAML), read at start
                                       and whenever the file changes (docs/collector.md#alerting)
              --retention-spans AGE    delete spans older than AGE, e.g. 12h, 7d (default 7d, 0 = keep)
              --retention-metrics AGE  delete metrics older than AGE (default 30d, 0 = keep)

            Limits and timeouts (see docs/collector.md; TIME is a number with ms, s, m, h or d):
              --idle-timeout TIME      close an agent connection silent this long (default 5m)
              --handshake-timeout TIME close a connection without a handshake by then (default 10s)
              --frame-timeout TIME     close a connection whose frame is not complete by then (default 60s)
              --max-handshake-bytes N  largest frame before the handshake (default 16384)
              --max-connections N      agent connections in all (default 1024)
              --max-connections-per-address N
                                       agent connections from one address (default 128)
              --max-buffered-bytes N   frame bytes buffered across agent connections (default 67108864)
              --store-queue-rows N     rows waiting for the storage writer (default 262144)
              --max-future-skew TIME   drop spans and metrics stamped further ahead (default 1h)
              --http-read-timeout TIME close an HTTP or OTLP connection silent this long (default 120s)
              --http-max-request-line N
                                       longest request line, else 414 (default 4096)
              --http-max-header-bytes N
                                       largest request headers, else 431 (default 8192)
              --otlp-store-wait TIME   how long OTLP waits for a full storage queue, then 503 (default 10s)
              --max-queued-queries N   API queries waiting for a thread, then 503 (default 256)

            Scale-out (see docs/scale-out.md):
              --storage MODE           embedded (default: DuckDB in --data-dir) or kafka: an ingest-only
                                       node that publishes to Kafka and stores nothing
              --kafka-bootstrap HOSTS  host:port[,host:port...] of the Kafka brokers (with --storage kafka)
              --kafka-topic-prefix P   prefix of the topics <P>spans, <P>calls, <P>jvm, <P>agents
                                       (default argus-)
              --kafka-create-topics N  create missing topics with N partitions (default: a missing topic
                                       is an error at start)
              --kafka-buffer-bytes N   most record bytes waiting for Kafka's acknowledgement (default
                                       33554432); beyond that agent connections pause reading
              --kafka-config FILE      further Kafka client properties (security.protocol, ssl.*, sasl.*)

            Access control (HTTP API, web UI, /metrics and OTLP/HTTP):
              --api-token-file FILE    require 'Authorization: Bearer <token>' with the token in FILE
                                       (or set ARGUS_API_TOKEN)
              --api-user USER          require HTTP Basic with this user ...
              --api-password-file FILE ... and the password in FILE (or set ARGUS_API_PASSWORD)

            TLS (every listener, ingest included):
              --tls-cert FILE          PEM certificate chain, server certificate first ...
              --tls-key FILE           ... and its unencrypted PKCS#8 PEM private key
              --tls-keystore FILE      or a PKCS#12 keystore with the key and its chain ...
              --tls-keystore-password-file FILE
                                       ... and its password (or set ARGUS_TLS_KEYSTORE_PASSWORD)

            Scale-out query node (answers the API from Druid; no ingest, no data directory):
              --query druid            query Druid instead of the embedded store ...
              --druid-url URL          ... at this Druid router or broker, e.g. http://127.0.0.1:8888
              --druid-datasource-prefix P
                                       prefix of the datasources P+spans, P+calls, P+jvm,
                                       P+agents (default argus-)

              --help                   show this help and exit

            Options take their value as the next argument or after '=' (--http-port=8080).
            """;

    private CollectorMain() {
    }

    /** Bad command line. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean pointToHelp;

        UsageException(String message) {
            this(message, true);
        }

        /** {@code pointToHelp} false: the message says all there is (a refused setting, not a typo). */
        UsageException(String message, boolean pointToHelp) {
            super(message);
            this.pointToHelp = pointToHelp;
        }
    }

    public static void main(String[] args) {
        configureLogging();
        CommandLine commandLine = new CommandLine(System.getenv());
        CollectorConfig config;
        try {
            if (commandLine.spec.answer(commandLine.spec.parse(args), System.out)) {
                return;
            }
            config = commandLine.config();
        } catch (UsageException e) {
            if (e.pointToHelp) {
                commandLine.spec.reject(System.err, e.getMessage());
            } else {
                System.err.println("argus-collector: " + e.getMessage());
            }
            System.exit(CommandLineSpec.USAGE_ERROR);
            return;
        }
        // The hook is in place before the collector starts, so that a SIGTERM arriving at any point
        // (even while starting) closes it cleanly.
        AtomicReference<Collector> running = new AtomicReference<>();
        CountDownLatch startAttempted = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                startAttempted.await(60, TimeUnit.SECONDS);
                Collector c = running.getAndSet(null);
                if (c != null) {
                    c.close();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stopped.countDown();
            }
        }, "argus-shutdown"));
        try {
            running.set(Collector.start(config));
        } catch (RuntimeException e) {
            System.err.println("argus-collector: " + e.getMessage());
            startAttempted.countDown();
            System.exit(1);
            return;
        }
        startAttempted.countDown();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Parses the command line; the agent token, when not given, and secrets not given by a file option come
     * from {@code env} ({@code ARGUS_COLLECTOR_TOKEN}, {@code ARGUS_API_TOKEN}, {@code ARGUS_API_PASSWORD},
     * {@code ARGUS_TLS_KEYSTORE_PASSWORD}).
     *
     * @return the config, or {@code null} when {@code --help} or {@code --completion} was asked for
     */
    static CollectorConfig parse(String[] args, Map<String, String> env) throws UsageException {
        CommandLine commandLine = new CommandLine(env);
        return commandLine.spec.parse(args) == CommandLineSpec.Request.RUN ? commandLine.config() : null;
    }

    /** The collector's options, each applied as it comes; {@link #config} checks what depends on several. */
    static final class CommandLine {
        private final Map<String, String> env;
        private final CollectorConfig.Builder b = CollectorConfig.builder()
                .otlpGrpcPort(CollectorConfig.DEFAULT_OTLP_GRPC_PORT);
        /** The Kafka, credential, TLS and Druid options, checked together at the end. */
        private final Map<String, String> opts = new HashMap<>();
        private IngestLimits ingest = IngestLimits.DEFAULTS;
        private HttpLimits http = HttpLimits.DEFAULTS;
        private DuckDbSettings duckDb = DuckDbSettings.DEFAULTS;
        final CommandLineSpec<UsageException> spec = CommandLineSpec.of("argus-collector", USAGE,
                UsageException::new);

        /** A handler that is told the option's name, for its messages. */
        private interface Handler {
            void accept(String name, String value) throws UsageException;
        }

        private void option(String name, String label, Handler handler) {
            spec.option(name, label, value -> handler.accept(name, value));
        }

        CommandLine(Map<String, String> env) {
            this.env = env;
            String envToken = env.get("ARGUS_COLLECTOR_TOKEN");
            if (envToken != null && !envToken.isEmpty()) {
                b.token(envToken);
            }
            option("--ingest-port", "PORT", (name, value) -> b.ingestPort(port(name, value)));
            option("--http-port", "PORT", (name, value) -> b.httpPort(port(name, value)));
            option("--bind", "ADDRESS", (name, value) -> {
                if (value.isBlank()) {
                    throw new UsageException("invalid value for --bind: an address is required");
                }
                b.bind(value);
            });
            option("--data-dir", "DIR", (name, value) -> {
                try {
                    if (value.isBlank()) {
                        throw new InvalidPathException(value, "empty path");
                    }
                    b.dataDir(Path.of(value));
                } catch (InvalidPathException e) {
                    throw new UsageException("invalid value for --data-dir: '" + value + "' (" + e.getReason()
                            + ")");
                }
            });
            option("--storage-threads", "N", (name, value) ->
                    duckDb = duckDb.withThreads(intRange(name, value, 1, DuckDbSettings.MAX_THREADS)));
            option("--storage-memory-mb", "N", (name, value) -> duckDb = duckDb.withMemoryLimitMiB(
                    intRange(name, value, DuckDbSettings.MIN_MEMORY_MIB, DuckDbSettings.MAX_MEMORY_MIB)));
            option("--max-frame-bytes", "N", (name, value) -> b.maxFrameBytes(intRange(name, value, 64, 1 << 30)));
            option("--max-batch-spans", "N", (name, value) ->
                    b.maxBatchSpans(intRange(name, value, 1, 10_000_000)));
            option("--token", "TOKEN", (name, value) -> {
                if (value.isEmpty()) {
                    throw new UsageException("invalid value for --token: must not be empty");
                }
                b.token(value);
            });
            option("--otlp-http-port", "PORT", (name, value) -> b.otlpHttpPort(port(name, value)));
            option("--otlp-grpc-port", "PORT", (name, value) -> b.otlpGrpcPort(port(name, value)));
            option("--otlp-max-body-bytes", "N", (name, value) ->
                    b.maxOtlpBodyBytes(intRange(name, value, 64, 1 << 30)));
            option("--alert-rules", "FILE", (name, value) -> b.alertRules(readable(name, value)));
            option("--retention-spans", "AGE", (name, value) -> b.retentionSpans(age(name, value)));
            option("--retention-metrics", "AGE", (name, value) -> b.retentionMetrics(age(name, value)));
            option("--idle-timeout", "TIME", (name, value) -> b.idleTimeout(duration(name, value)));
            option("--handshake-timeout", "TIME", (name, value) ->
                    ingest = ingest.withHandshake(duration(name, value), ingest.maxHandshakeBytes()));
            option("--frame-timeout", "TIME", (name, value) -> ingest = ingest.withFrameTimeout(duration(name, value)));
            option("--max-handshake-bytes", "N", (name, value) ->
                    ingest = ingest.withHandshake(ingest.handshakeTimeout(), intRange(name, value, 64, 1 << 30)));
            option("--max-connections", "N", (name, value) -> ingest = ingest.withMaxConnections(
                    intRange(name, value, 1, 1_000_000), ingest.maxConnectionsPerAddress()));
            option("--max-connections-per-address", "N", (name, value) -> ingest = ingest.withMaxConnections(
                    ingest.maxConnections(), intRange(name, value, 1, 1_000_000)));
            option("--max-buffered-bytes", "N", (name, value) ->
                    ingest = ingest.withMaxBufferedBytes(longRange(name, value, 1 << 20, 1L << 40)));
            option("--store-queue-rows", "N", (name, value) ->
                    b.storeQueueSpans(intRange(name, value, 1_000, 100_000_000)));
            option("--max-future-skew", "TIME", (name, value) ->
                    ingest = ingest.withMaxFutureSkew(duration(name, value)));
            option("--http-read-timeout", "TIME", (name, value) -> http = http.withReadTimeout(duration(name, value)));
            option("--http-max-request-line", "N", (name, value) -> http = http.withRequestSizes(
                    intRange(name, value, 256, 1 << 20), http.maxHeaderBytes()));
            option("--http-max-header-bytes", "N", (name, value) -> http = http.withRequestSizes(
                    http.maxRequestLineBytes(), intRange(name, value, 1024, 1 << 20)));
            option("--otlp-store-wait", "TIME", (name, value) -> http = http.withOtlpStoreWait(duration(name, value)));
            option("--max-queued-queries", "N", (name, value) ->
                    http = http.withMaxQueuedQueries(intRange(name, value, 1, 1_000_000)));
            for (String name : new String[] {"--storage", "--kafka-bootstrap", "--kafka-topic-prefix",
                    "--kafka-create-topics", "--kafka-buffer-bytes", "--kafka-config"}) {
                option(name, "VALUE", opts::put);
            }
            option("--query", "druid", (name, value) -> {
                if (!value.equals("druid")) {
                    throw new UsageException("invalid value for --query: '" + value + "' (only 'druid')");
                }
                opts.put(name, value);
            });
            for (String name : new String[] {"--api-token-file", "--api-user", "--api-password-file", "--tls-cert",
                    "--tls-key", "--tls-keystore", "--tls-keystore-password-file", "--druid-url",
                    "--druid-datasource-prefix"}) {
                option(name, "VALUE", (n, value) -> {
                    if (value.isBlank()) {
                        throw new UsageException("invalid value for " + n + ": must not be empty");
                    }
                    opts.put(n, value);
                });
            }
        }

        /** The config of the options parsed, with the checks that span several options. */
        CollectorConfig config() throws UsageException {
            b.ingestLimits(ingest).httpLimits(http).duckDb(duckDb);
            b.kafka(kafka(opts));
            b.httpCredentials(credentials(opts, env));
            b.tls(tls(opts, env));
            b.druidQuery(druidQuery(opts));
            try {
                return b.build();
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage(), false);
            }
        }
    }

    /** The Kafka settings of {@code --storage kafka}; {@code null} for the embedded storage. */
    private static KafkaSettings kafka(Map<String, String> opts) throws UsageException {
        String mode = opts.getOrDefault("--storage", "embedded");
        if (mode.equals("embedded")) {
            for (String name : opts.keySet()) {
                if (name.startsWith("--kafka-")) {
                    throw new UsageException(name + " needs --storage kafka");
                }
            }
            return null;
        }
        if (!mode.equals("kafka")) {
            throw new UsageException("invalid value for --storage: '" + mode + "' (embedded or kafka)");
        }
        try {
            KafkaSettings k = KafkaSettings.of(opts.get("--kafka-bootstrap"));
            if (opts.containsKey("--kafka-topic-prefix")) {
                k = k.withTopicPrefix(opts.get("--kafka-topic-prefix"));
            }
            if (opts.containsKey("--kafka-create-topics")) {
                k = k.withCreatePartitions(intRange("--kafka-create-topics", opts.get("--kafka-create-topics"), 1,
                        100_000));
            }
            if (opts.containsKey("--kafka-buffer-bytes")) {
                k = k.withBufferBytes(intRange("--kafka-buffer-bytes", opts.get("--kafka-buffer-bytes"), 1 << 20,
                        Integer.MAX_VALUE));
            }
            if (opts.containsKey("--kafka-config")) {
                k = k.withClientProperties(clientProperties(readable("--kafka-config", opts.get("--kafka-config"))));
            }
            return k;
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage(), false);
        }
    }

    private static Map<String, String> clientProperties(Path file) throws UsageException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            p.load(in);
        } catch (IOException e) {
            throw new UsageException("cannot read --kafka-config " + file + ": " + e, false);
        }
        Map<String, String> out = new HashMap<>();
        p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    private static HttpCredentials credentials(Map<String, String> opts, Map<String, String> env)
            throws UsageException {
        String token = secret(opts, "--api-token-file", env, "ARGUS_API_TOKEN");
        String user = opts.get("--api-user");
        String password = secret(opts, "--api-password-file", env, "ARGUS_API_PASSWORD");
        if (user != null && password == null) {
            throw new UsageException("--api-user needs a password: --api-password-file FILE or ARGUS_API_PASSWORD");
        }
        if (user == null && password != null) {
            throw new UsageException((opts.containsKey("--api-password-file") ? "--api-password-file"
                    : "ARGUS_API_PASSWORD") + " is set but --api-user is not");
        }
        try {
            return new HttpCredentials(token, user, password);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static DruidSettings druidQuery(Map<String, String> opts) throws UsageException {
        String url = opts.get("--druid-url");
        String prefix = opts.get("--druid-datasource-prefix");
        if (!opts.containsKey("--query")) {
            if (url != null || prefix != null) {
                throw new UsageException((url != null ? "--druid-url" : "--druid-datasource-prefix")
                        + " is set but --query druid is not");
            }
            return null;
        }
        if (url == null) {
            throw new UsageException("--query druid needs --druid-url (a Druid router or broker)");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException("invalid value for --druid-url: '" + url + "' (" + e.getReason() + ")");
        }
        try {
            return new DruidSettings(uri, prefix == null ? DruidSettings.DEFAULT_DATASOURCE_PREFIX : prefix,
                    DruidSettings.DEFAULT_QUERY_TIMEOUT);
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid value for " + (e.getMessage().contains("prefix")
                    ? "--druid-datasource-prefix" : "--druid-url") + ": " + e.getMessage());
        }
    }

    private static TlsSettings tls(Map<String, String> opts, Map<String, String> env) throws UsageException {
        String cert = opts.get("--tls-cert");
        String key = opts.get("--tls-key");
        String keystore = opts.get("--tls-keystore");
        String password = secret(opts, "--tls-keystore-password-file", env, "ARGUS_TLS_KEYSTORE_PASSWORD");
        if (cert == null && key == null && keystore == null) {
            if (opts.containsKey("--tls-keystore-password-file")) {
                throw new UsageException("--tls-keystore-password-file is set but --tls-keystore is not");
            }
            return null;
        }
        if (keystore != null && (cert != null || key != null)) {
            throw new UsageException("--tls-keystore excludes --tls-cert and --tls-key");
        }
        if (keystore != null) {
            return TlsSettings.pkcs12(readable("--tls-keystore", keystore), password);
        }
        if (cert == null || key == null) {
            throw new UsageException("--tls-cert and --tls-key go together");
        }
        return TlsSettings.pem(readable("--tls-cert", cert), readable("--tls-key", key));
    }

    /** A secret from the file named by {@code option}, else from {@code envVar}; {@code null} when neither is set. */
    private static String secret(Map<String, String> opts, String option, Map<String, String> env, String envVar)
            throws UsageException {
        String file = opts.get(option);
        if (file == null) {
            String value = env.get(envVar);
            return value == null || value.isEmpty() ? null : value;
        }
        String value;
        try {
            value = Files.readString(readable(option, file)).strip();
        } catch (IOException e) {
            throw new UsageException("cannot read " + option + " " + file + ": " + e);
        }
        if (value.isEmpty()) {
            throw new UsageException(option + " " + file + " is empty");
        }
        return value;
    }

    private static Path readable(String option, String file) throws UsageException {
        Path path;
        try {
            path = Path.of(file);
        } catch (InvalidPathException e) {
            throw new UsageException("invalid value for " + option + ": '" + file + "' (" + e.getReason() + ")");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new UsageException("invalid value for " + option + ": " + file + " is not a readable file");
        }
        return path;
    }

    private static final Pattern AGE = Pattern.compile("(\\d{1,9})([smhd]?)");

    /**
     * An age: a whole number followed by {@code s}, {@code m}, {@code h} or {@code d} ({@code 90m},
     * {@code 7d}); {@code 0} alone means keep forever. At most 100 years.
     */
    static Duration age(String name, String value) throws UsageException {
        Matcher m = AGE.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches() || (m.group(2).isEmpty() && Long.parseLong(m.group(1)) != 0)) {
            throw new UsageException("invalid value for " + name + ": '" + value
                    + "' (expected a number with a unit s, m, h or d, e.g. 7d or 12h; 0 keeps everything)");
        }
        long n = Long.parseLong(m.group(1));
        Duration age = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> Duration.ZERO;
        };
        if (age.compareTo(Duration.ofDays(36_500)) > 0) {
            throw new UsageException("invalid value for " + name + ": '" + value + "' is more than 100 years");
        }
        return age;
    }

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

    /** A positive time: a whole number with {@code ms}, {@code s}, {@code m}, {@code h} or {@code d}. */
    static Duration duration(String name, String value) throws UsageException {
        Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new UsageException("invalid value for " + name + ": '" + value
                    + "' (expected a positive number with a unit ms, s, m, h or d, e.g. 500ms or 30s)");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    private static long longRange(String name, String value, long min, long max) throws UsageException {
        long v;
        try {
            v = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new UsageException("invalid value for " + name + ": '" + value + "' is not a number");
        }
        if (v < min || v > max) {
            throw new UsageException("invalid value for " + name + ": " + v + " is outside " + min + ".." + max);
        }
        return v;
    }

    private static int port(String name, String value) throws UsageException {
        return intRange(name, value, 0, 65535);
    }

    private static int intRange(String name, String value, int min, int max) throws UsageException {
        return (int) longRange(name, value, min, max);
    }

    /** One line per record on stderr, INFO and up; Netty and DuckDB internals only from WARNING. */
    private static void configureLogging() {
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", CollectorLogManager.class.getName());
        }
        if (System.getProperty("java.util.logging.config.file") != null
                || System.getProperty("java.util.logging.config.class") != null) {
            return;
        }
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format",
                    "%1$tF %1$tT.%1$tL %4$s %3$s - %5$s%6$s%n");
        }
        Logger.getLogger("io.netty").setLevel(Level.WARNING);
        Logger.getLogger("org.duckdb").setLevel(Level.WARNING);
        Logger.getLogger("org.apache.kafka").setLevel(Level.WARNING);
        // a broker outage is reported once by the collector; the client's line per reconnect attempt would flood
        Logger.getLogger("org.apache.kafka.clients.NetworkClient").setLevel(Level.SEVERE);
    }
}
