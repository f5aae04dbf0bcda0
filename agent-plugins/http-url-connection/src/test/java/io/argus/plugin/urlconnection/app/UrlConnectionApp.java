package io.argus.plugin.urlconnection.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.argus.bridge.ActiveSpan;
import io.argus.bridge.Argus;

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
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The application under test, forked with the agent. It runs a JDK {@code HttpServer} and an
 * {@code HttpsServer} on the loopback address as the downstream service (they print every trace
 * header they receive), makes the calls the test expects with {@code HttpURLConnection} in the ways
 * applications use it, prints what happened, then stays alive until the test stops it.
 *
 * <p>There is no server plugin in the test agent, so a traced call gets its parent span from
 * {@link Argus#serverStart} called directly, as a server plugin would.
 *
 * <p>Output lines, one per event:
 * <ul>
 *   <li>{@code SERVER port=<n> httpsPort=<n> closedPort=<n>}</li>
 *   <li>{@code RECEIVED tag=<tag> method=<m> traceparent=<value|null> tracestate=<value|null> x-test=<value>
 *       body=<request body>}</li>
 *   <li>{@code ROOT tag=<tag> traceparent=<parent span>}</li>
 *   <li>{@code INBOUND tag=tracestate traceId=<id of the inbound trace context>}</li>
 *   <li>{@code STATUS tag=<tag> code=<n> body=<response body>}</li>
 *   <li>{@code ERROR tag=<tag> class=<exception class> message=<message>}</li>
 *   <li>{@code DONE}, then {@code AFTER} once the {@code /after} marker (a server span) is recorded</li>
 * </ul>
 */
public final class UrlConnectionApp {

    public static final int PLAIN_CALLS = 5;

    private UrlConnectionApp() {
    }

    /** One call, made the way the test needs it. */
    private interface Call {
        void run() throws IOException;
    }

    public static void main(String[] args) throws Exception {
        HttpHandler handler = UrlConnectionApp::handle;
        InetAddress loopback = InetAddress.getLoopbackAddress();
        HttpServer server = HttpServer.create(new InetSocketAddress(loopback, 0), 0);
        server.createContext("/", handler);
        server.start();
        SSLContext tls = selfSignedTls();
        HttpsServer httpsServer = HttpsServer.create(new InetSocketAddress(loopback, 0), 0);
        httpsServer.setHttpsConfigurator(new HttpsConfigurator(tls));
        httpsServer.createContext("/", handler);
        httpsServer.start();
        trustEveryone(tls);
        int port = server.getAddress().getPort();
        int httpsPort = httpsServer.getAddress().getPort();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, loopback)) {
            closedPort = socket.getLocalPort();
        }
        System.out.println("SERVER port=" + port + " httpsPort=" + httpsPort + " closedPort=" + closedPort);
        String base = "http://127.0.0.1:" + port;
        String refused = "http://127.0.0.1:" + closedPort;

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
        call("refused-plain", () -> get(refused + "/refused?tag=refused-plain", "refused-plain", false));
        call("missing", () -> {
            HttpURLConnection c = open(base + "/missing?tag=missing", "missing");
            int code = c.getResponseCode();
            status("missing", code, read(c.getErrorStream()));
            c.getInputStream(); // throws FileNotFoundException, without another request
        });
        // a response served by a java.net.ResponseCache, without any network I/O
        ResponseCache.setDefault(new OneResponseCache());
        try {
            call("cached", () -> get("http://cache.invalid/cached?tag=cached", "cached", false));
        } finally {
            ResponseCache.setDefault(null);
        }
        // an inbound tracestate is passed on
        String inboundTraceId = String.format("%016x%016x", ThreadLocalRandom.current().nextLong(),
                ThreadLocalRandom.current().nextLong());
        System.out.println("INBOUND tag=tracestate traceId=" + inboundTraceId);
        ActiveSpan withState = Argus.serverStart("GET", "/with-state",
                "00-" + inboundTraceId + "-b7ad6b7169203331-01", "vendor=argus", null);
        long t0 = System.nanoTime();
        printRoot("tracestate", withState);
        call("tracestate", () -> get(base + "/ok?tag=tracestate", "tracestate", false));
        Argus.serverEnd(withState, t0, "GET", "/with-state", 200, null);
        // HTTPS goes through the same code (HttpsURLConnectionImpl delegates to a subclass)
        String httpsBase = "https://localhost:" + httpsPort;
        traced("https-traced", () -> get(httpsBase + "/ok?tag=https-traced", "https-traced", true));
        call("https-plain", () -> get(httpsBase + "/ok?tag=https-plain", "https-plain", false));

        System.out.println("DONE");
        // a marker recorded well after the last call: once the collector shows it, every metric of
        // the calls above has been flushed (the test agent flushes metrics every second)
        Thread.sleep(1500);
        ActiveSpan after = Argus.serverStart("GET", "/after", null, null, null);
        Argus.serverEnd(after, System.nanoTime(), "GET", "/after", 200, null);
        System.out.println("AFTER");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        String tag = query != null && query.startsWith("tag=") ? query.substring(4) : "?";
        String requestBody = read(exchange.getRequestBody());
        System.out.println("RECEIVED tag=" + tag + " method=" + exchange.getRequestMethod()
                + " traceparent=" + exchange.getRequestHeaders().getFirst("traceparent")
                + " tracestate=" + exchange.getRequestHeaders().getFirst("tracestate")
                + " x-test=" + exchange.getRequestHeaders().getFirst("x-test")
                + " body=" + (requestBody.isEmpty() ? "-" : requestBody));
        byte[] body = ("hello-" + tag).getBytes(StandardCharsets.UTF_8);
        int status = exchange.getRequestURI().getPath().equals("/missing") ? 404 : 200;
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
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

    private static void traced(String tag, Call call) {
        ActiveSpan root = Argus.serverStart("GET", "/test-" + tag, null, null, null);
        long start = System.nanoTime();
        printRoot(tag, root);
        try {
            call(tag, call);
        } finally {
            Argus.serverEnd(root, start, "GET", "/test-" + tag, 200, null);
        }
    }

    private static void call(String tag, Call call) {
        try {
            call.run();
        } catch (IOException e) {
            System.out.println("ERROR tag=" + tag + " class=" + e.getClass().getName() + " message=" + e.getMessage());
        }
    }

    private static void printRoot(String tag, ActiveSpan root) {
        System.out.println("ROOT tag=" + tag + " traceparent=" + (root == null ? null : root.traceparent()));
    }

    private static void status(String tag, int code, String body) {
        System.out.println("STATUS tag=" + tag + " code=" + code + " body=" + body);
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
