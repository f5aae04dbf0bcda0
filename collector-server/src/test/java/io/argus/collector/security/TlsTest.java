package io.argus.collector.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.Spans;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestCertificates;
import io.argus.collector.testing.TestConfigs;
import io.argus.protocol.SpanBatch;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.cert.CertificateExpiredException;
import java.time.Duration;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS on the HTTP, OTLP and ingest ports, with certificates made by keytool at test time. */
class TlsTest {
    static final String BEARER = "Bearer tls-token";

    @TempDir
    static Path dataDir;
    static TestCertificates certs;
    static Collector collector;
    static HttpClient trusting;
    static Api api;

    @BeforeAll
    static void start() {
        certs = TestCertificates.get();
        trusting = HttpClient.newBuilder().sslContext(certs.clientContext()).connectTimeout(Duration.ofSeconds(5))
                .build();
        collector = Collector.start(TestConfigs.ephemeral().otlpHttpPort(CollectorConfig.ANY_FREE_PORT)
                .httpCredentials(HttpCredentials.token("tls-token"))
                .tls(TlsSettings.pkcs12(certs.keystore(), TestCertificates.PASSWORD))
                .dataDir(dataDir.resolve("main")).build());
        api = new Api(collector, trusting, BEARER);
    }

    @AfterAll
    static void stop() {
        collector.close();
    }

    static double handshakeFailures(String listener) {
        return api.metric("argus_collector_tls_handshake_failures_total{listener=\"" + listener + "\"}");
    }

    @Test
    void httpsWithATrustedCertificate() {
        assertThat(collector.httpUrl()).startsWith("https://127.0.0.1:");
        Api.Response res = api.get("/api/services");
        assertThat(res.status()).isEqualTo(200);
        assertThat(api.get("/api/services", null).status()).isEqualTo(401);
    }

    @Test
    void plainTextHttpClientIsRejectedAndTheCollectorKeepsServing() throws Exception {
        double before = handshakeFailures("http");
        HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI uri = URI.create("http://127.0.0.1:" + collector.httpPort() + "/api/services");
        assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                .header("Authorization", BEARER).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(IOException.class);
        // the JDK client retries a failed GET once, so one or two refused connections
        api.awaitMetric("argus_collector_tls_handshake_failures_total{listener=\"http\"}", before + 1);
        assertThat(api.get("/api/services").status()).isEqualTo(200);
    }

    @Test
    void otlpOverHttps() throws Exception {
        HttpResponse<byte[]> res = trusting.send(HttpRequest.newBuilder(
                        URI.create("https://127.0.0.1:" + collector.otlpHttpPort() + "/v1/traces"))
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/x-protobuf")
                .header("Authorization", BEARER).POST(HttpRequest.BodyPublishers.ofByteArray(new byte[0])).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(res.statusCode()).isEqualTo(200);
    }

    @Test
    void ingestOverTlsAcceptsAnAgentAndRejectsPlainText() throws Exception {
        double before = handshakeFailures("ingest");
        try (TestAgent plain = new TestAgent(collector.ingestPort())) {
            plain.hello("plain", "plain-1");
            assertThat(plain.closedByServer(10_000)).isTrue();
        }
        api.awaitMetric("argus_collector_tls_handshake_failures_total{listener=\"ingest\"}", before + 1);

        try (TestAgent agent = TestAgent.overTls(collector.ingestPort(), certs.clientContext())) {
            agent.hello("secure", "secure-1")
                    .spans(SpanBatch.newBuilder().addSpans(Spans.simple(77, 1)).build());
            api.await("/api/agents", agents -> agents.findValuesAsText("instance").contains("secure-1")
                    && agents.findValuesAsText("connected").contains("true"));
            api.await("/api/traces?service=secure", traces -> traces.size() == 1);
        }
        assertThat(api.get("/api/agents").body()).doesNotContain("plain-1");
    }

    @Test
    void pemCertificateAndKey(@TempDir Path dir) {
        try (Collector pem = Collector.start(TestConfigs.ephemeral()
                .tls(TlsSettings.pem(certs.certificatePem(), certs.privateKeyPem())).dataDir(dir).build())) {
            assertThat(new Api(pem, trusting, null).get("/api/services").status()).isEqualTo(200);
        }
    }

    @Test
    void anExpiredCertificateIsRejectedByTheClient(@TempDir Path dir) {
        try (Collector expired = Collector.start(TestConfigs.ephemeral()
                .tls(TlsSettings.pkcs12(certs.expiredKeystore(), TestCertificates.PASSWORD)).dataDir(dir).build())) {
            URI uri = URI.create(expired.httpUrl() + "api/services");
            assertThatThrownBy(() -> trusting.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(SSLHandshakeException.class)
                    .hasRootCauseInstanceOf(CertificateExpiredException.class);
        }
    }

    @Test
    void unreadableKeyMaterialStopsTheStart(@TempDir Path dir) {
        assertThatThrownBy(() -> Collector.start(TestConfigs.ephemeral()
                .tls(TlsSettings.pkcs12(certs.keystore(), "wrong password")).dataDir(dir).build()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot read the TLS keystore");
    }
}
