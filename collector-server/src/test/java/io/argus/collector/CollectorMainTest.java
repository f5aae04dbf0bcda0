package io.argus.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.argus.collector.security.HttpCredentials;
import io.argus.collector.security.TlsSettings;
import io.argus.collector.storage.duckdb.DuckDbSettings;
import io.argus.collector.testing.TestConfigs;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectorMainTest {
    @TempDir
    Path dataDir;

    @Test
    void defaults() throws Exception {
        CollectorConfig c = CollectorMain.parse(new String[0], Map.of());
        assertThat(c.bind()).isEqualTo("127.0.0.1");
        assertThat(c.ingestPort()).isEqualTo(9898);
        assertThat(c.httpPort()).isEqualTo(9897);
        assertThat(c.dataDir().toString()).isEqualTo("./data");
        assertThat(c.maxFrameBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(c.maxBatchSpans()).isEqualTo(10_000);
        assertThat(c.token()).isNull();
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.otlpHttpPort()).isEqualTo(4318);
        assertThat(c.otlpGrpcPort()).isEqualTo(4317);
        assertThat(c.alertRules()).isNull();
        assertThat(c.maxOtlpBodyBytes()).isEqualTo(4 * 1024 * 1024);
        assertThat(c.retentionSpans()).isEqualTo(Duration.ofDays(7));
        assertThat(c.retentionMetrics()).isEqualTo(Duration.ofDays(30));
        assertThat(c.retentionInterval()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void otlpAndRetentionFlags() throws Exception {
        CollectorConfig c = CollectorMain.parse(new String[] {"--otlp-http-port", "0", "--otlp-max-body-bytes=2048",
                "--retention-spans", "12h", "--retention-metrics=90m"}, Map.of());
        assertThat(c.otlpHttpPort()).isZero();
        assertThat(c.maxOtlpBodyBytes()).isEqualTo(2048);
        assertThat(c.retentionSpans()).isEqualTo(Duration.ofHours(12));
        assertThat(c.retentionMetrics()).isEqualTo(Duration.ofMinutes(90));
        c = CollectorMain.parse(new String[] {"--retention-spans=0", "--retention-metrics", "45S"}, Map.of());
        assertThat(c.retentionSpans()).isZero();
        assertThat(c.retentionMetrics()).isEqualTo(Duration.ofSeconds(45));
        assertThat(CollectorMain.parse(new String[] {"--otlp-http-port=4319"}, Map.of()).otlpHttpPort()).isEqualTo(4319);
    }

    @Test
    void grpcPortAndAlertRulesFlags() throws Exception {
        java.nio.file.Path rules = java.nio.file.Files.writeString(dataDir.resolve("rules.yaml"), "rules: []\n");
        CollectorConfig c = CollectorMain.parse(new String[] {"--otlp-grpc-port", "0", "--alert-rules",
                rules.toString()}, Map.of());
        assertThat(c.otlpGrpcPort()).isZero();
        assertThat(c.alertRules()).isEqualTo(rules);
        assertThat(CollectorMain.parse(new String[] {"--otlp-grpc-port=14317"}, Map.of()).otlpGrpcPort())
                .isEqualTo(14317);
        assertBad("invalid value for --alert-rules: " + dataDir.resolve("none.yaml") + " is not a readable file",
                "--alert-rules", dataDir.resolve("none.yaml").toString());
        assertBad("alert rules need a collector that answers queries: an ingest-only node (--storage kafka) cannot"
                + " evaluate them; give them to the query node", "--storage", "kafka", "--kafka-bootstrap",
                "127.0.0.1:9092", "--alert-rules", rules.toString());
    }

    @Test
    void badRetentionAndOtlpFlags() {
        String expected = "(expected a number with a unit s, m, h or d, e.g. 7d or 12h; 0 keeps everything)";
        assertBad("invalid value for --retention-spans: '7' " + expected, "--retention-spans", "7");
        assertBad("invalid value for --retention-spans: '7w' " + expected, "--retention-spans=7w");
        assertBad("invalid value for --retention-metrics: '-1d' " + expected, "--retention-metrics", "-1d");
        assertBad("invalid value for --retention-metrics: 'd' " + expected, "--retention-metrics", "d");
        assertBad("invalid value for --retention-metrics: '' " + expected, "--retention-metrics=");
        assertBad("invalid value for --retention-spans: '40000d' is more than 100 years", "--retention-spans=40000d");
        assertBad("invalid value for --otlp-http-port: -1 is outside 0..65535", "--otlp-http-port", "-1");
        assertBad("invalid value for --otlp-max-body-bytes", "--otlp-max-body-bytes", "10");
        assertBad("--retention-spans needs a value", "--retention-spans");
    }

    @Test
    void flags() throws Exception {
        CollectorConfig c = CollectorMain.parse(new String[] {"--ingest-port", "7000", "--http-port=7001",
                "--bind", "0.0.0.0", "--data-dir", "/tmp/x", "--max-frame-bytes=1024", "--token", "t0k",
                "--max-batch-spans", "50"}, Map.of("ARGUS_API_TOKEN", "api-t0k"));
        assertThat(c.httpCredentials().token()).isEqualTo("api-t0k");
        assertThat(c.toString()).doesNotContain("api-t0k");
        assertThat(c.ingestPort()).isEqualTo(7000);
        assertThat(c.httpPort()).isEqualTo(7001);
        assertThat(c.bind()).isEqualTo("0.0.0.0");
        assertThat(c.dataDir()).isEqualTo(Path.of("/tmp/x"));
        assertThat(c.maxFrameBytes()).isEqualTo(1024);
        assertThat(c.token()).isEqualTo("t0k");
        assertThat(c.maxBatchSpans()).isEqualTo(50);
        assertThat(c.toString()).doesNotContain("t0k");
        assertThat(CollectorMain.parse(new String[] {"--help"}, Map.of())).isNull();
        assertThat(CollectorMain.parse(new String[0], Map.of("ARGUS_COLLECTOR_TOKEN", "from-env")).token())
                .isEqualTo("from-env");
        assertThat(CollectorMain.parse(new String[] {"--token", "flag"}, Map.of("ARGUS_COLLECTOR_TOKEN", "env"))
                .token()).isEqualTo("flag");
    }

    @Test
    void limitAndTimeoutFlags() throws Exception {
        CollectorConfig d = CollectorMain.parse(new String[0], Map.of());
        assertThat(d.ingestLimits()).isEqualTo(IngestLimits.DEFAULTS);
        assertThat(d.httpLimits()).isEqualTo(HttpLimits.DEFAULTS);
        CollectorConfig c = CollectorMain.parse(new String[] {"--idle-timeout", "90s", "--handshake-timeout=500ms",
                "--frame-timeout", "2m", "--max-handshake-bytes", "4096", "--max-connections", "50",
                "--max-connections-per-address=5", "--max-buffered-bytes", "16777216", "--store-queue-rows", "5000",
                "--max-future-skew", "10m", "--http-read-timeout", "30s", "--http-max-request-line", "8192",
                "--http-max-header-bytes", "16384", "--otlp-store-wait", "2s", "--max-queued-queries", "16"},
                Map.of());
        assertThat(c.idleTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(c.storeQueueSpans()).isEqualTo(5000);
        assertThat(c.ingestLimits()).isEqualTo(new IngestLimits(50, 5, Duration.ofMillis(500), 4096,
                Duration.ofMinutes(2), 16L << 20, Duration.ofMinutes(10)));
        assertThat(c.httpLimits()).isEqualTo(new HttpLimits(Duration.ofSeconds(30), 8192, 16384,
                Duration.ofSeconds(2), 16));
        assertThat(CollectorMain.USAGE).contains("--handshake-timeout", "--max-buffered-bytes", "--otlp-store-wait");
    }

    @Test
    void embeddedDatabaseFlags() throws Exception {
        assertThat(CollectorMain.parse(new String[0], Map.of()).duckDb()).isEqualTo(DuckDbSettings.DEFAULTS);
        assertThat(CollectorMain.parse(new String[] {"--storage-threads", "4", "--storage-memory-mb", "512"}, Map.of())
                .duckDb()).isEqualTo(new DuckDbSettings(4, 512));
        assertBad("invalid value for --storage-threads: 0 is outside 1..256", "--storage-threads", "0");
        assertBad("invalid value for --storage-threads: 'many' is not a number", "--storage-threads=many");
        assertBad("invalid value for --storage-memory-mb: 32 is outside 64..1048576", "--storage-memory-mb", "32");
        assertBad("invalid value for --storage-memory-mb: '2GB' is not a number", "--storage-memory-mb=2GB");
        assertThat(CollectorMain.USAGE).contains("--storage-threads", "--storage-memory-mb");
    }

    @Test
    void badLimitFlags() {
        String expected = "(expected a positive number with a unit ms, s, m, h or d, e.g. 500ms or 30s)";
        assertBad("invalid value for --handshake-timeout: '5' " + expected, "--handshake-timeout", "5");
        assertBad("invalid value for --frame-timeout: '0s' " + expected, "--frame-timeout=0s");
        assertBad("invalid value for --idle-timeout: 'soon' " + expected, "--idle-timeout", "soon");
        assertBad("invalid value for --max-connections: 0 is outside 1..1000000", "--max-connections", "0");
        assertBad("invalid value for --max-buffered-bytes: 10 is outside", "--max-buffered-bytes", "10");
        assertBad("must hold at least one frame", "--max-buffered-bytes", "2000000", "--max-frame-bytes", "4000000");
        assertBad("invalid value for --http-max-request-line: 'x' is not a number", "--http-max-request-line=x");
    }

    @Test
    void kafkaFlags() throws Exception {
        assertThat(CollectorMain.parse(new String[0], Map.of()).kafka()).isNull();
        assertThat(CollectorMain.parse(new String[] {"--storage", "embedded"}, Map.of()).kafka()).isNull();
        Path props = dataDir.resolve("kafka.properties");
        Files.writeString(props, "security.protocol=SSL\nssl.truststore.location=/etc/trust.p12\n");
        CollectorConfig c = CollectorMain.parse(new String[] {"--storage=kafka", "--kafka-bootstrap",
                "127.0.0.1:9092, kafka-2.example:9093", "--kafka-topic-prefix", "prod.argus-",
                "--kafka-create-topics", "12", "--kafka-buffer-bytes=8388608", "--kafka-config", props.toString()},
                Map.of());
        assertThat(c.kafka().bootstrap()).isEqualTo("127.0.0.1:9092, kafka-2.example:9093");
        assertThat(c.kafka().topicPrefix()).isEqualTo("prod.argus-");
        assertThat(c.kafka().createPartitions()).isEqualTo(12);
        assertThat(c.kafka().bufferBytes()).isEqualTo(8_388_608);
        assertThat(c.kafka().clientProperties()).containsEntry("security.protocol", "SSL")
                .containsEntry("ssl.truststore.location", "/etc/trust.p12");
        CollectorConfig d = CollectorMain.parse(new String[] {"--storage", "kafka", "--kafka-bootstrap=[::1]:9092"},
                Map.of());
        assertThat(d.kafka().topicPrefix()).isEqualTo("argus-");
        assertThat(d.kafka().createPartitions()).isZero();
    }

    @Test
    void badKafkaFlags() {
        assertBad("invalid value for --storage: 'druid' (embedded or kafka)", "--storage", "druid");
        assertBad("--kafka-bootstrap is required with --storage kafka", "--storage", "kafka");
        assertBad("invalid value for --kafka-bootstrap: 'localhost' is not host:port",
                "--storage", "kafka", "--kafka-bootstrap", "localhost");
        assertBad("invalid value for --kafka-bootstrap: 'b:99999' is not host:port",
                "--storage", "kafka", "--kafka-bootstrap", "a:1,b:99999");
        assertBad("invalid value for --kafka-bootstrap: '' is not host:port",
                "--storage", "kafka", "--kafka-bootstrap", "a:1,");
        assertBad("invalid value for --kafka-topic-prefix", "--storage", "kafka", "--kafka-bootstrap", "a:1",
                "--kafka-topic-prefix", "a b");
        assertBad("--kafka-bootstrap needs --storage kafka", "--kafka-bootstrap", "a:1");
        assertBad("invalid value for --kafka-create-topics: 0 is outside", "--storage", "kafka",
                "--kafka-bootstrap", "a:1", "--kafka-create-topics", "0");
        assertBad("invalid value for --kafka-config: /nonexistent/k.properties is not a readable file",
                "--storage", "kafka", "--kafka-bootstrap", "a:1", "--kafka-config", "/nonexistent/k.properties");
    }

    @Test
    void badFlags() {
        assertBad("invalid value for --ingest-port: 'abc' is not a number", "--ingest-port", "abc");
        assertBad("invalid value for --http-port: 70000 is outside 0..65535", "--http-port=70000");
        assertBad("invalid value for --max-frame-bytes", "--max-frame-bytes", "10");
        assertBad("unknown option '--nope'", "--nope", "1");
        assertBad("unknown option '--nope'", "--nope=1");
        assertBad("--data-dir needs a value", "--data-dir");
        assertBad("unexpected argument 'extra'", "extra");
        assertBad("invalid value for --token", "--token=");
        assertBad("invalid value for --bind", "--bind", " ");
    }

    @Test
    void credentialFlagsReadSecretsFromFilesOrTheEnvironment() throws Exception {
        Path token = Files.writeString(dataDir.resolve("token"), "file-token\n");
        Path password = Files.writeString(dataDir.resolve("password"), "file-password\n");
        CollectorConfig c = CollectorMain.parse(new String[] {"--api-token-file", token.toString(), "--api-user=ops",
                "--api-password-file", password.toString()}, Map.of("ARGUS_API_TOKEN", "env-token"));
        assertThat(c.httpCredentials()).isEqualTo(new HttpCredentials("file-token", "ops", "file-password"));
        assertThat(c.toString()).doesNotContain("file-token").doesNotContain("file-password");
        c = CollectorMain.parse(new String[] {"--api-user", "ops", "--bind", "::1"},
                Map.of("ARGUS_API_TOKEN", "env-token", "ARGUS_API_PASSWORD", "env-password"));
        assertThat(c.httpCredentials()).isEqualTo(new HttpCredentials("env-token", "ops", "env-password"));
        assertThat(CollectorMain.parse(new String[0], Map.of()).httpCredentials().required()).isFalse();
    }

    @Test
    void tlsFlags() throws Exception {
        Path cert = Files.writeString(dataDir.resolve("c.pem"), "x");
        Path key = Files.writeString(dataDir.resolve("k.pem"), "x");
        Path pw = Files.writeString(dataDir.resolve("pw"), "store-pass\n");
        assertThat(CollectorMain.parse(new String[] {"--tls-cert", cert.toString(), "--tls-key=" + key}, Map.of())
                .tls()).isEqualTo(TlsSettings.pem(cert, key));
        assertThat(CollectorMain.parse(new String[] {"--tls-keystore", cert.toString(), "--tls-keystore-password-file",
                pw.toString()}, Map.of()).tls()).isEqualTo(TlsSettings.pkcs12(cert, "store-pass"));
        assertThat(CollectorMain.parse(new String[] {"--tls-keystore", cert.toString()},
                Map.of("ARGUS_TLS_KEYSTORE_PASSWORD", "env-pass")).tls())
                .isEqualTo(TlsSettings.pkcs12(cert, "env-pass"));
        assertThat(CollectorMain.parse(new String[0], Map.of()).tls()).isNull();
        assertBad("--tls-cert and --tls-key go together", "--tls-cert", cert.toString());
        assertBad("--tls-keystore excludes --tls-cert and --tls-key", "--tls-keystore", cert.toString(),
                "--tls-key", key.toString());
        assertBad("invalid value for --tls-key: " + dataDir.resolve("none") + " is not a readable file",
                "--tls-cert", cert.toString(), "--tls-key", dataDir.resolve("none").toString());
        assertBad("--tls-keystore-password-file is set but --tls-keystore is not", "--tls-keystore-password-file",
                pw.toString());
    }

    @Test
    void badCredentialFlags() throws Exception {
        Path empty = Files.writeString(dataDir.resolve("empty"), "\n");
        assertBad("--api-user needs a password", "--api-user", "ops");
        assertBad("--api-password-file is set but --api-user is not", "--api-password-file",
                Files.writeString(dataDir.resolve("p"), "pw").toString());
        assertBad("is empty", "--api-token-file", empty.toString());
        assertBad("invalid value for --api-token-file: " + dataDir + " is not a readable file", "--api-token-file",
                dataDir.toString());
        assertBad("invalid value for --api-user: must not be empty", "--api-user=");
        assertThatThrownBy(() -> CollectorMain.parse(new String[0], Map.of("ARGUS_API_PASSWORD", "pw")))
                .hasMessage("ARGUS_API_PASSWORD is set but --api-user is not");
    }

    @Test
    void nonLoopbackBindWithoutCredentialIsRefused() throws Exception {
        for (String bind : new String[] {"0.0.0.0", "::", "192.0.2.1"}) {
            assertThatThrownBy(() -> CollectorMain.parse(new String[] {"--bind", bind, "--token", "agents"}, Map.of()))
                    .isInstanceOf(CollectorMain.UsageException.class)
                    .hasMessageStartingWith("refusing to listen on " + bind + " without an API credential");
            assertThatThrownBy(() -> TestConfigs.ephemeral().bind(bind).build())
                    .isInstanceOf(IllegalArgumentException.class);
        }
        for (String bind : new String[] {"127.0.0.1", "127.0.0.2", "::1", "localhost"}) {
            assertThat(CollectorMain.parse(new String[] {"--bind", bind}, Map.of()).bind()).isEqualTo(bind);
        }
        assertThat(TestConfigs.ephemeral().bind("0.0.0.0").httpCredentials(HttpCredentials.basic("u", "p")).build()
                .bind()).isEqualTo("0.0.0.0");
    }

    @Test
    void nonLoopbackBindWithoutCredentialExitsWithTwoAndOneLine() throws Exception {
        Path err = dataDir.resolve("err.txt");
        Process p = launch(err, "--bind", "0.0.0.0", "--data-dir", dataDir.resolve("data").toString());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(Files.readAllLines(err)).containsExactly("argus-collector: refusing to listen on 0.0.0.0 without"
                + " an API credential: anyone who can reach it could read all traces; set --api-token-file (or"
                + " ARGUS_API_TOKEN) or --api-user with --api-password-file (or ARGUS_API_PASSWORD), or bind to"
                + " 127.0.0.1");
        assertThat(dataDir.resolve("data")).doesNotExist();
    }

    private static void assertBad(String message, String... args) {
        assertThatThrownBy(() -> CollectorMain.parse(args, Map.of()))
                .isInstanceOf(CollectorMain.UsageException.class)
                .hasMessageContaining(message);
    }

    /** Starts CollectorMain in a child JVM; its stderr goes to {@code errFile} (destroy() would close a pipe). */
    private Process launch(Path errFile, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(CollectorMain.class.getName());
        Collections.addAll(cmd, args);
        return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(errFile.toFile()).start();
    }

    @Test
    void unknownFlagExitsWithTwoAndOneErrorNamingIt() throws Exception {
        Path err = dataDir.resolve("err.txt");
        Process p = launch(err, "--ingest-prot", "9898");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(Files.readAllLines(err)).containsExactly("argus-collector: unknown option '--ingest-prot'",
                "Try 'argus-collector --help' for the options.");
    }

    @Test
    void theUsageNamesEveryOption() {
        assertThat(new CollectorMain.CommandLine(Map.of()).spec.optionsMissingFromUsage()).isEmpty();
    }

    @Test
    void helpAndCompletionAnswerWithoutStarting() throws Exception {
        assertThat(CollectorMain.parse(new String[] {"--completion"}, Map.of())).isNull();
        assertThat(CollectorMain.parse(new String[] {"-h"}, Map.of())).isNull();
    }

    @Test
    void badFlagExitsWithTwo() throws Exception {
        Path err = dataDir.resolve("err.txt");
        Process p = launch(err, "--http-port", "abc");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(Files.readString(err))
                .contains("argus-collector: invalid value for --http-port: 'abc' is not a number");
    }

    @Test
    void runsInForegroundAndStopsOnSigterm() throws Exception {
        Path err = dataDir.resolve("err.txt");
        Path data = dataDir.resolve("data");
        Process p = launch(err, "--ingest-port", "0", "--http-port", "0", "--otlp-http-port", "0", "--otlp-grpc-port",
                "0", "--data-dir", data.toString());
        try {
            Pattern started = Pattern.compile(
                    "Argus collector started: ingest 127\\.0\\.0\\.1:(\\d+), http http://127\\.0\\.0\\.1:(\\d+)/, data (.+)$",
                    Pattern.MULTILINE);
            Matcher m = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline && p.isAlive()) {
                Matcher candidate = started.matcher(Files.readString(err));
                if (candidate.find()) {
                    m = candidate;
                    break;
                }
                Thread.sleep(20);
            }
            assertThat(m).as("started line in %s", Files.readString(err)).isNotNull();
            assertThat(m.group(3)).isEqualTo(data.toString());
            int httpPort = Integer.parseInt(m.group(2));
            HttpResponse<String> res = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/api/services")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(res.statusCode()).isEqualTo(200);
            assertThat(res.body()).isEqualTo("[]");

            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(err)).contains("Argus collector stopped");
            assertThat(data.resolve("argus.duckdb")).exists();
        } finally {
            p.destroyForcibly();
        }
    }
}
