package io.argus.perf.harness.http;

import io.argus.perf.harness.http.RequestSpec;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The harness's HTTP: a keep-alive java.net.http client, and a raw-socket readiness probe. */
public final class Http {

    private static final HttpClient SHARED = newClient();

    private Http() {
    }

    /** HTTP/1.1 with keep-alive (java.net.http keeps idle connections in its pool). */
    public static HttpClient newClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    public static HttpRequest toRequest(RequestSpec spec, Duration timeout) {
        HttpRequest.Builder b = HttpRequest.newBuilder(spec.uri()).timeout(timeout);
        if (spec.body() != null) {
            b.header("Content-Type", spec.contentType() == null ? "application/json" : spec.contentType());
            b.method(spec.method(), HttpRequest.BodyPublishers.ofString(spec.bodyAt(0)));
        } else {
            b.method(spec.method(), HttpRequest.BodyPublishers.noBody());
        }
        return b.build();
    }

    /** Sends one request and reads the whole body as text. */
    public static Response once(RequestSpec spec, Duration timeout) throws IOException, InterruptedException {
        HttpResponse<String> r = SHARED.send(toRequest(spec, timeout), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body());
    }

    public static Response get(String uri, Duration timeout) throws IOException, InterruptedException {
        return once(RequestSpec.get(uri), timeout);
    }

    /**
     * One readiness probe over a fresh socket ({@code Connection: close}): the status code, or -1
     * when the connection is refused or the answer is not HTTP. Cheap enough to poll every few
     * milliseconds while a JVM starts, so it barely competes with the JVM for the CPU.
     */
    public static int probe(RequestSpec spec, int timeoutMillis) {
        return probe(spec, timeoutMillis, null);
    }

    /** {@link #probe(RequestSpec, int)} with a W3C {@code traceparent} header, when not null. */
    public static int probe(RequestSpec spec, int timeoutMillis, String traceparent) {
        return probe(spec, timeoutMillis, timeoutMillis, traceparent);
    }

    /**
     * {@link #probe(RequestSpec, int, String)} with a read timeout of its own: a server that accepted the connection
     * may hold the request a while (an agent's start gate holds the first one until its probes are in).
     */
    public static int probe(RequestSpec spec, int connectTimeoutMillis, int readTimeoutMillis, String traceparent) {
        URI uri = spec.uri();
        int port = uri.getPort() > 0 ? uri.getPort() : 80;
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        byte[] body = spec.body() == null ? new byte[0] : spec.bodyAt(0).getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder()
                .append(spec.method()).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(uri.getHost()).append(':').append(port).append("\r\n")
                .append("Connection: close\r\n");
        if (traceparent != null) {
            head.append("traceparent: ").append(traceparent).append("\r\n");
        }
        if (spec.body() != null) {
            head.append("Content-Type: ").append(spec.contentType()).append("\r\n")
                    .append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), port), connectTimeoutMillis);
            s.setSoTimeout(readTimeoutMillis);
            OutputStream out = s.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n' && line.length() < 200) {
                line.append((char) c);
            }
            String[] parts = line.toString().trim().split(" ");
            if (parts.length >= 2 && parts[0].startsWith("HTTP/")) {
                return Integer.parseInt(parts[1]);
            }
            return -1;
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    public record Response(int status, String body) {
    }
}
