package io.argus.plugin.urlconnection.app;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.argus.testing.app.Downstream;

import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.CacheRequest;
import java.net.CacheResponse;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ResponseCache;
import java.net.URI;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.argus.testing.app.Downstream.plain;
import static io.argus.testing.app.Downstream.status;
import static io.argus.testing.app.Downstream.traced;
import static io.argus.testing.app.Downstream.tracedWithState;

/**
 * The application under test, forked with the agent. It runs agent-testing-app's {@link Downstream}
 * server, and the same paths over HTTPS, on the loopback address as the downstream service, makes the
 * calls the test expects with {@code HttpURLConnection} in the ways applications use it, prints what
 * happened (the lines of {@link Downstream}; its SERVER line also has {@code httpsPort=<n>}), then stays
 * alive until the test stops it.
 */
public final class UrlConnectionApp {

    public static final int PLAIN_CALLS = 5;

    private UrlConnectionApp() {
    }

    public static void main(String[] args) throws Exception {
        Downstream downstream = Downstream.create(Collections.emptyMap());
        SSLContext tls = selfSignedTls();
        HttpsServer httpsServer = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        httpsServer.setHttpsConfigurator(new HttpsConfigurator(tls));
        httpsServer.createContext("/", downstream.handler());
        httpsServer.start();
        trustEveryone(tls);
        int httpsPort = httpsServer.getAddress().getPort();
        downstream.printServer("httpsPort=" + httpsPort);
        String base = downstream.base;
        String refused = "http://127.0.0.1:" + downstream.closedPort;

        // traced: getResponseCode() first (it calls getInputStream() itself), then the body
        traced("traced", () -> get(base + "/ok?tag=traced", "traced", true));
        // traced: POST with a buffered body, getOutputStream() first
        traced("post-traced", () -> post(base + "/ok?tag=post-traced", "post-traced", false));
        // traced: an explicit connect() first, then getResponseCode()
        traced("connect-traced", () -> {
            HttpURLConnection c = open(base + "/ok?tag=connect-traced", "connect-traced");
            c.connect();
            status("connect-traced", c.getResponseCode(), read(c.getInputStream()));
        });
        // traced failures: connection refused inside getResponseCode(), and inside an explicit connect()
        traced("refused-traced", () -> get(refused + "/refused?tag=refused-traced", "refused-traced", true));
        traced("connect-refused-traced", () -> open(refused + "/refused?tag=connect-refused-traced",
                "connect-refused-traced").connect());
        // no current span
        for (int i = 0; i < PLAIN_CALLS; i++) {
            get(base + "/ok?tag=plain" + i, "plain" + i, false);
        }
        post(base + "/ok?tag=post-stream", "post-stream", true);
        plain("refused-plain", () -> get(refused + "/refused?tag=refused-plain", "refused-plain", false));
        plain("missing", () -> {
            HttpURLConnection c = open(base + "/missing?tag=missing", "missing");
            int code = c.getResponseCode();
            status("missing", code, read(c.getErrorStream()));
            c.getInputStream(); // throws FileNotFoundException, without another request
        });
        // a response served by a java.net.ResponseCache, without any network I/O
        ResponseCache.setDefault(new OneResponseCache());
        try {
            plain("cached", () -> get("http://cache.invalid/cached?tag=cached", "cached", false));
        } finally {
            ResponseCache.setDefault(null);
        }
        // an inbound tracestate is passed on
        tracedWithState("tracestate", "vendor=argus", () -> get(base + "/ok?tag=tracestate", "tracestate", false));
        // HTTPS goes through the same code (HttpsURLConnectionImpl delegates to a subclass)
        String httpsBase = "https://localhost:" + httpsPort;
        traced("https-traced", () -> get(httpsBase + "/ok?tag=https-traced", "https-traced", true));
        plain("https-plain", () -> get(httpsBase + "/ok?tag=https-plain", "https-plain", false));
        Downstream.finish();
    }

    private static HttpURLConnection open(String url, String tag) throws IOException {
        HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
        c.setConnectTimeout(5000);
        c.setReadTimeout(5000);
        c.setRequestProperty("x-test", tag);
        return c;
    }

    private static void get(String url, String tag, boolean responseCodeFirst) throws IOException {
        HttpURLConnection c = open(url, tag);
        if (responseCodeFirst) {
            int code = c.getResponseCode();
            status(tag, code, read(c.getInputStream()));
        } else {
            String body = read(c.getInputStream());
            status(tag, c.getResponseCode(), body);
        }
    }

    private static void post(String url, String tag, boolean streaming) throws IOException {
        HttpURLConnection c = open(url, tag);
        c.setDoOutput(true);
        byte[] body = ("body-" + tag).getBytes(StandardCharsets.UTF_8);
        if (streaming) {
            c.setFixedLengthStreamingMode(body.length);
        }
        try (OutputStream out = c.getOutputStream()) {
            out.write(body);
        }
        status(tag, c.getResponseCode(), read(c.getInputStream()));
    }

    private static String read(InputStream in) throws IOException {
        if (in == null) {
            return "";
        }
        try (InputStream stream = in) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            stream.transferTo(out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /** Answers requests to the host {@code cache.invalid} from memory. */
    private static final class OneResponseCache extends ResponseCache {
        @Override
        public CacheResponse get(URI uri, String method, Map<String, List<String>> requestHeaders) {
            if (!"cache.invalid".equals(uri.getHost())) {
                return null;
            }
            byte[] body = "hello-cached".getBytes(StandardCharsets.UTF_8);
            Map<String, List<String>> headers = new HashMap<>();
            headers.put(null, List.of("HTTP/1.1 200 OK"));
            headers.put("Content-Length", List.of(String.valueOf(body.length)));
            return new CacheResponse() {
                @Override
                public Map<String, List<String>> getHeaders() {
                    return headers;
                }

                @Override
                public InputStream getBody() {
                    return new ByteArrayInputStream(body);
                }
            };
        }

        @Override
        public CacheRequest put(URI uri, URLConnection connection) {
            return null;
        }
    }

    /** A TLS context with a fresh self-signed certificate, made by the JDK's keytool. */
    private static SSLContext selfSignedTls() throws Exception {
        Path dir = Files.createTempDirectory("argus-tls");
        Path store = dir.resolve("server.p12");
        char[] password = "changeit".toCharArray();
        Process keytool = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IllegalStateException("keytool failed: " + output);
        }
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, password);
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore, password);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** The test client trusts the test server's self-signed certificate. */
    private static void trustEveryone(SSLContext serverContext) throws Exception {
        TrustManager trustAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, new TrustManager[] {trustAll}, null);
        HttpsURLConnection.setDefaultSSLSocketFactory(client.getSocketFactory());
        HttpsURLConnection.setDefaultHostnameVerifier((host, session) -> true);
    }
}
