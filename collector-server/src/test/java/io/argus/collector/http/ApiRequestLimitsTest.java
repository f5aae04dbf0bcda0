package io.argus.collector.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestConfigs;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests past the API's limits say so: a {@code limit} above the maximum is a 400 naming it (not silently
 * capped), a request line too long for the server is 414, and {@code /ui/} is the page like {@code /}.
 */
class ApiRequestLimitsTest {
    @TempDir
    static Path dataDir;
    static Collector collector;
    static Api api;

    @BeforeAll
    static void start() {
        collector = Collector.start(TestConfigs.ephemeral().dataDir(dataDir).build());
        api = new Api(collector);
    }

    @AfterAll
    static void stop() {
        collector.close();
    }

    @Test
    void limitAboveTheMaximumIsA400NamingIt() {
        for (String path : new String[] {"/api/traces?limit=10000000", "/api/traces?range=1h&limit=1001",
            "/api/servicemap/traces?source=a&target=b&limit=5000"}) {
            Api.Response r = api.get(path);
            assertThat(r.status()).as(path).isEqualTo(400);
            assertThat(r.json().get("error").asText()).as(path).contains("limit").contains("at most 1000");
        }
        assertThat(api.get("/api/traces?limit=1000").status()).isEqualTo(200);
    }

    @Test
    void overlongUrlIs414() {
        Api.Response r = api.get("/api/traces?service=" + "x".repeat(8 * 1024));
        assertThat(r.status()).isEqualTo(414);
        assertThat(r.contentType()).startsWith("application/json");
        assertThat(r.json().get("error").asText()).contains("request line");
        // the server goes on answering
        assertThat(api.get("/api/services").status()).isEqualTo(200);
    }

    @Test
    void malformedPercentEscapeIs400() throws IOException {
        // found by ApiParametersFuzzTest: the query string decoder's exception closed the connection unanswered
        for (String path : new String[] {"/api/traces?service=%zz", "/api/traces?tag=a%%xDF", "/api/services%"}) {
            String answer = rawGet(path);
            assertThat(answer).as(path).startsWith("HTTP/1.1 400 ").contains("malformed");
        }
    }

    /** A GET written by hand: java.net.http refuses to send such URLs. */
    private static String rawGet(String path) throws IOException {
        try (Socket s = new Socket("127.0.0.1", collector.httpPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void uiFolderIsThePage() {
        Api.Response page = api.get("/ui/");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        assertThat(page.body()).isEqualTo(api.get("/").body());
        assertThat(api.get("/ui").status()).isEqualTo(200);
    }
}
