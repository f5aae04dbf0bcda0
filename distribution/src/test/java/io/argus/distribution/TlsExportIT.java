package io.argus.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.security.TlsSettings;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestCertificates;
import io.argus.collector.testing.TestConfigs;
import io.argus.distribution.apps.TracedLoopApp;
import io.argus.testing.AgentApp;
import io.argus.testing.TestCollector;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The assembled agent, in a forked JVM on each JDK, exporting over TLS to a real collector serving TLS on its
 * ingest port (certificates made by keytool at test time): spans arrive when the agent trusts the collector's CA;
 * an untrusted or expired certificate, a plain-text collector or unusable trust material is refused with one
 * clear agent log line, the application keeps running, and the spans it makes are dropped and counted.
 */
class TlsExportIT {

    private static final String TRUST_PASSWORD = "trust-pass";
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** A small queue: spans made while nothing is sent are dropped within a second instead of eight. */
    private static final int QUEUE = 64;

    @TempDir
    static Path dir;
    static TestCertificates certs;
    /** The test CA alone, as a PKCS#12 trust store. */
    static Path caStore;

    @BeforeAll
    static void trustStore() throws Exception {
        certs = TestCertificates.get();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (InputStream in = Files.newInputStream(certs.caCertificatePem())) {
            store.setCertificateEntry("argus-test-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        caStore = dir.resolve("ca-trust.p12");
        try (OutputStream out = Files.newOutputStream(caStore)) {
            store.store(out, TRUST_PASSWORD.toCharArray());
        }
    }

    static List<String> jdks() {
        return AgentApp.javaHomes();
    }

    private static String jdkTag(String javaHome) {
        return javaHome.equals(System.getProperty("java.home")) ? "jdk" + Runtime.version().feature()
                : Paths.get(javaHome).getFileName().toString();
    }

    private static String testClasses() {
        return Paths.get(System.getProperty("argus.home")).getParent().resolve("test-classes").toString();
    }

    private static AgentApp.Builder app(String javaHome, String service) {
        return AgentApp.builder(TracedLoopApp.class.getName()).javaHome(javaHome).classpath(testClasses())
                .service(service).samplingRate(100)
                .agent("argus.trace.methods", TracedLoopApp.class.getName() + "#work")
                .agent("argus.exporter.maxBackoff", "1s")
                .agent("argus.collector.tls", "true")
                .logToTestLogs("tls-" + service);
    }

    private static Collector tlsCollector(Path keystore, Path data) {
        return Collector.start(TestConfigs.ephemeral().tls(TlsSettings.pkcs12(keystore, TestCertificates.PASSWORD))
                .dataDir(data).build());
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void spansArriveOverTlsAfterFailingOverFromADeadAddress(String javaHome, @TempDir Path data) throws Exception {
        String service = "tls-ok-" + jdkTag(javaHome);
        try (Collector collector = tlsCollector(certs.keystore(), data);
             AgentApp app = app(javaHome, service)
                     // the name the certificate carries, so that host name verification (on by default) passes
                     .agent("argus.collector.address", "127.0.0.1:" + TestCollector.freePort()
                             + ",localhost:" + collector.ingestPort())
                     .agent("argus.collector.tls.trustStore", caStore)
                     .agent("argus.collector.tls.trustStorePassword", TRUST_PASSWORD).start()) {
            Api api = new Api(collector, HttpClient.newBuilder().sslContext(certs.clientContext())
                    .connectTimeout(Duration.ofSeconds(5)).build(), null);
            JsonNode traces = await(api, "/api/traces?service=" + service + "&limit=100", t -> t.size() >= 20);
            assertThat(traces.size()).isGreaterThanOrEqualTo(20);
            JsonNode agents = await(api, "/api/agents", a -> a.findValuesAsText("service").contains(service));
            assertThat(agents.findValuesAsText("connected")).contains("true");
            assertThat(app.output()).contains("sending to collector localhost:" + collector.ingestPort())
                    .doesNotContain("TLS handshake failed");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aCertificateFromACaNotInTheTrustStoreIsRejected(String javaHome, @TempDir Path data) {
        try (Collector collector = tlsCollector(certs.keystore(), data);
             // no trust store: the JVM's default CAs, which do not include the test CA
             AgentApp app = app(javaHome, "tls-untrusted-" + jdkTag(javaHome))
                     .collector(collector.ingestPort()).agent("argus.exporter.queueSize", QUEUE).start()) {
            assertRejected(app, "[argus] WARN collector 127.0.0.1:" + collector.ingestPort() + " unavailable (TLS handshake"
                    + " failed: the collector's certificate is not signed by a certificate in argus.collector.tls.trustStore");
            assertThat(new Api(collector, HttpClient.newBuilder().sslContext(certs.clientContext()).build(), null)
                    .json("/api/agents")).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void anExpiredCertificateIsRejected(String javaHome, @TempDir Path data) {
        try (Collector collector = tlsCollector(certs.expiredKeystore(), data);
             AgentApp app = app(javaHome, "tls-expired-" + jdkTag(javaHome)).collector(collector.ingestPort())
                     .agent("argus.collector.tls.trustStore", certs.caCertificatePem())
                     .agent("argus.exporter.queueSize", QUEUE).start()) {
            assertRejected(app, "[argus] WARN collector 127.0.0.1:" + collector.ingestPort() + " unavailable (TLS handshake"
                    + " failed: the collector's certificate has expired (NotAfter: ");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aPlainTextCollectorIsRejected(String javaHome, @TempDir Path data) {
        try (TestCollector collector = TestCollector.start(data);
             AgentApp app = app(javaHome, "tls-plain-" + jdkTag(javaHome)).collector(collector.ingestPort())
                     .agent("argus.collector.tls.trustStore", certs.caCertificatePem())
                     .agent("argus.exporter.queueSize", QUEUE).start()) {
            assertRejected(app, "[argus] WARN collector 127.0.0.1:" + collector.ingestPort() + " unavailable (");
            assertThat(rejection(app)).contains("is its ingest port serving TLS?");
            assertThat(collector.client().agents()).isEmpty();
        }
    }

    /** 127.0.0.2 is loopback too, but the certificate names only localhost and 127.0.0.1. */
    @ParameterizedTest
    @MethodSource("jdks")
    void aCertificateNotNamingTheHostIsRejectedUnlessHostNameVerificationIsOff(String javaHome, @TempDir Path data)
            throws Exception {
        try (Collector collector = Collector.start(TestConfigs.ephemeral().bind("127.0.0.2")
                .tls(TlsSettings.pkcs12(certs.keystore(), TestCertificates.PASSWORD)).dataDir(data).build())) {
            String address = "127.0.0.2:" + collector.ingestPort();
            try (AgentApp app = app(javaHome, "tls-hostname-" + jdkTag(javaHome))
                    .agent("argus.collector.address", address)
                    .agent("argus.collector.tls.trustStore", certs.caCertificatePem())
                    .agent("argus.exporter.queueSize", QUEUE).start()) {
                assertRejected(app, "[argus] WARN collector " + address + " unavailable (TLS handshake failed: the"
                        + " collector's certificate does not name the host connected to (");
            }
            // the collector's HTTPS API would fail the test client's own host name check here: the agent's debug
            // line says that its TLS session is up
            try (AgentApp app = app(javaHome, "tls-no-hostname-check-" + jdkTag(javaHome))
                    .agent("argus.collector.address", address)
                    .agent("argus.collector.tls.trustStore", certs.caCertificatePem())
                    .agent("argus.collector.tls.verifyHostname", "false").agent("argus.log.level", "debug").start()) {
                app.awaitLine(java.util.regex.Pattern.quote("[argus] DEBUG TLS session with collector " + address
                        + " established"), WAIT);
                app.awaitLine("^CALLS 2000$", WAIT);
                assertThat(app.output()).doesNotContain("unavailable");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aMissingTrustStoreSwitchesExportOff(String javaHome) {
        Path missing = dir.resolve("no-such-trust.p12");
        try (AgentApp app = app(javaHome, "tls-missing-" + jdkTag(javaHome)).collector(TestCollector.freePort())
                .agent("argus.collector.tls.trustStore", missing).start()) {
            assertExportOff(app, "[argus] ERROR argus.collector.tls.trustStore: no such file " + missing
                    + "; export to the collector is off: spans and metrics are dropped and counted");
        }
    }

    @ParameterizedTest
    @MethodSource("jdks")
    void aWrongTrustStorePasswordSwitchesExportOff(String javaHome) {
        try (AgentApp app = app(javaHome, "tls-password-" + jdkTag(javaHome)).collector(TestCollector.freePort())
                .agent("argus.collector.tls.trustStore", caStore)
                .agent("argus.collector.tls.trustStorePassword", "not-it").start()) {
            assertExportOff(app, "[argus] ERROR argus.collector.tls.trustStore: wrong password for " + caStore
                    + " (argus.collector.tls.trustStorePassword); export to the collector is off");
        }
    }

    /**
     * The agent says once why the collector is refused, the application keeps calling through several reconnection
     * attempts (backoff 0.5 s, then 1 s), and at exit the agent reports the spans it dropped.
     */
    private static void assertRejected(AgentApp app, String line) {
        assertOneLineAndTheApplicationRuns(app, line, " unavailable (");
    }

    private static String rejection(AgentApp app) {
        return agentLines(app).stream().filter(l -> l.contains(" unavailable (")).findFirst().orElse("");
    }

    /** One error at start; the application runs, and the agent drops what it records. */
    private static void assertExportOff(AgentApp app, String line) {
        assertOneLineAndTheApplicationRuns(app, line, " ERROR ");
    }

    private static void assertOneLineAndTheApplicationRuns(AgentApp app, String line, String kind) {
        app.awaitLine(java.util.regex.Pattern.quote(line), WAIT);
        int callsAtLine = lastCalls(app);
        app.awaitLine("^CALLS " + (callsAtLine + 3000) + "$", WAIT);
        assertThat(agentLines(app).stream().filter(l -> l.contains(kind))).hasSize(1);
        assertDropsReportedAtExit(app);
    }

    private static void assertDropsReportedAtExit(AgentApp app) {
        // SIGTERM, so that the agent's shutdown hook runs; not Process.destroy(), which also closes the pipe the
        // hook's line goes through
        ProcessHandle.of(app.pid()).ifPresent(ProcessHandle::destroy);
        Matcher drops = awaitOutput(app, "\\[argus\\] spans since start: (\\d+) made = (\\d+) acknowledged \\+"
                + " (\\d+) dropped \\+ (\\d+) lost at exit");
        assertThat(Long.parseLong(drops.group(3))).as("dropped spans").isGreaterThan(500);
        assertThat(Long.parseLong(drops.group(2))).as("acknowledged spans").isZero();
        assertThat(Long.parseLong(drops.group(3)) + Long.parseLong(drops.group(4))).as("every span accounted for")
                .isEqualTo(Long.parseLong(drops.group(1)));
    }

    /** Once the process ended: its last lines may still be on their way through the output pump. */
    private static Matcher awaitOutput(AgentApp app, String regex) {
        java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(regex);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        do {
            Matcher m = pattern.matcher(app.output());
            if (m.find()) {
                return m;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("no line /" + regex + "/ at exit; output:\n" + app.output());
    }

    private static int lastCalls(AgentApp app) {
        List<String> calls = app.lines().stream().filter(l -> l.startsWith("CALLS ")).collect(Collectors.toList());
        return calls.isEmpty() ? 0 : Integer.parseInt(calls.get(calls.size() - 1).substring(6));
    }

    private static List<String> agentLines(AgentApp app) {
        return app.lines().stream().filter(l -> l.startsWith("[argus]")).collect(Collectors.toList());
    }

    private static JsonNode await(Api api, String path, Predicate<JsonNode> done) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = api.json(path);
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("GET " + path + " never satisfied the condition within " + WAIT + "; last: " + last);
    }
}
