package io.argus.collector.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.security.HttpCredentials;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestConfigs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bearer token and HTTP Basic on the API, the UI, /metrics and OTLP/HTTP, over real sockets. */
class HttpAuthTest {
    static final String TOKEN = "s3cret-token";
    static final String BEARER = "Bearer " + TOKEN;
    static final String BASIC = basic("ops", "pa:ss wörd");

    @TempDir
    static Path dataDir;
    static Collector collector;
    static Api api;
    static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() {
        collector = Collector.start(TestConfigs.ephemeral().otlpHttpPort(CollectorConfig.ANY_FREE_PORT)
                .httpCredentials(new HttpCredentials(TOKEN, "ops", "pa:ss wörd")).dataDir(dataDir).build());
        api = new Api(collector, CLIENT, BEARER);
    }

    @AfterAll
    static void stop() {
        collector.close();
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    static void assertUnauthorized(Api.Response res) {
        assertThat(res.status()).isEqualTo(401);
        assertThat(res.headers().allValues("www-authenticate")).hasSize(2);
        assertThat(res.headers().allValues("www-authenticate").get(0))
                .isEqualTo("Basic realm=\"argus\", charset=\"UTF-8\"");
        assertThat(res.headers().allValues("www-authenticate").get(1)).startsWith("Bearer realm=\"argus\"");
    }

    @Test
    void noCredentialIs401WithChallenges() {
        Api.Response res = api.get("/api/services", null);
        assertUnauthorized(res);
        assertThat(res.headers().allValues("www-authenticate").get(1)).isEqualTo("Bearer realm=\"argus\"");
        assertThat(res.contentType()).startsWith("application/json");
        assertThat(res.json().get("error").asText()).isEqualTo("authentication required");
        assertThat(res.json().get("status").asInt()).isEqualTo(401);
    }

    @Test
    void wrongTokenIs401() {
        Api.Response res = api.get("/api/services", "Bearer " + TOKEN + "x");
        assertUnauthorized(res);
        assertThat(res.headers().allValues("www-authenticate").get(1))
                .isEqualTo("Bearer realm=\"argus\", error=\"invalid_token\"");
        assertThat(res.json().get("error").asText()).isEqualTo("invalid credentials");
        assertUnauthorized(api.get("/api/services", "Token " + TOKEN));
        assertUnauthorized(api.get("/api/services", "Bearer"));
    }

    @Test
    void rightTokenIs200() {
        Api.Response res = api.get("/api/services");
        assertThat(res.status()).isEqualTo(200);
        assertThat(res.body()).isEqualTo("[]");
        assertThat(api.get("/api/agents", "bearer  " + TOKEN).status()).isEqualTo(200);
    }

    @Test
    void basicRightAndWrong() {
        assertThat(api.get("/api/services", BASIC).status()).isEqualTo(200);
        assertUnauthorized(api.get("/api/services", basic("ops", "pa:ss")));
        assertUnauthorized(api.get("/api/services", basic("root", "pa:ss wörd")));
        assertUnauthorized(api.get("/api/services", "Basic not-base64!"));
        assertUnauthorized(api.get("/api/services", "Basic " + TOKEN));
    }

    @Test
    void uiAndMissingPathsAreProtected() {
        for (String path : new String[] {"/", "/index.html", "/no/such/thing", "/api/traces/zz"}) {
            assertUnauthorized(api.get(path, null));
        }
        Api.Response ui = api.get("/", BASIC);
        assertThat(ui.status()).isEqualTo(200);
        assertThat(ui.contentType()).startsWith("text/html");
        assertThat(api.get("/no/such/thing").status()).isEqualTo(404);
    }

    @Test
    void metricsNeedTheSameCredentialAndCountRefusals() {
        assertUnauthorized(api.get("/metrics", null));
        double before = api.metric("argus_collector_http_unauthorized_total{listener=\"http\"}");
        assertUnauthorized(api.get("/metrics", "Bearer nope"));
        assertThat(api.metric("argus_collector_http_unauthorized_total{listener=\"http\"}")).isEqualTo(before + 1);
        assertThat(api.get("/metrics", BASIC).body()).contains("argus_collector_http_unauthorized_total");
    }

    @Test
    void otlpNeedsTheCredential() throws Exception {
        double before = api.metric("argus_collector_http_unauthorized_total{listener=\"otlp\"}");
        HttpResponse<byte[]> refused = otlp("/v1/traces", null);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("content-type")).contains("application/x-protobuf");
        assertThat(refused.headers().allValues("www-authenticate")).hasSize(2);
        assertThat(new String(refused.body(), StandardCharsets.UTF_8)).contains("authentication required");
        assertThat(otlp("/v1/nope", null).statusCode()).isEqualTo(401);
        assertThat(otlp("/v1/traces", "Bearer wrong").statusCode()).isEqualTo(401);
        assertThat(api.metric("argus_collector_http_unauthorized_total{listener=\"otlp\"}")).isEqualTo(before + 3);

        assertThat(otlp("/v1/traces", BEARER).statusCode()).isEqualTo(200); // an empty export request
        assertThat(otlp("/v1/metrics", BASIC).statusCode()).isEqualTo(200);
        assertThat(otlp("/v1/nope", BEARER).statusCode()).isEqualTo(404);
    }

    static HttpResponse<byte[]> otlp(String path, String authorization) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + collector.otlpHttpPort() + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(20)).header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[0]));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
