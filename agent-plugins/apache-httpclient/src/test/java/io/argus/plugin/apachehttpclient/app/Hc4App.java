package io.argus.plugin.apachehttpclient.app;

import io.argus.testing.app.Downstream;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.HttpRequest;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.DefaultHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.message.BasicHttpRequest;
import org.apache.http.util.EntityUtils;

import static io.argus.testing.app.Downstream.plain;
import static io.argus.testing.app.Downstream.traced;

/**
 * The HttpClient 4.x application under test (compiled against 4.3, run with each tested 4.x release).
 * See {@link Downstream} for the output it prints; the IT knows the calls by their tags.
 */
public final class Hc4App {

    public static final int PLAIN_CALLS = 4;

    private Hc4App() {
    }

    @SuppressWarnings("deprecation")
    public static void main(String[] args) throws Exception {
        Downstream down = Downstream.start();
        RequestConfig config = RequestConfig.custom().setConnectTimeout(5000).setSocketTimeout(10000).build();
        CloseableHttpClient client = HttpClients.custom().setDefaultRequestConfig(config).build();

        // InternalHttpClient, execute(HttpUriRequest): one client span, the header on the wire, the
        // application's own header kept, the request object left as it was
        traced("traced", () -> {
            HttpGet get = get(down.url("/ok", "traced"), "traced");
            send(client, get, "traced");
            afterCall("traced", get);
        });
        // the application set its own trace headers: replaced on the wire, restored afterwards
        traced("user-header", () -> {
            HttpGet get = get(down.url("/ok", "user-header"), "user-header");
            get.setHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            get.setHeader("tracestate", "user=1");
            send(client, get, "user-header");
            afterCall("user-header", get);
        });
        // one request object executed twice: traced, then untraced (must not carry a stale header)
        HttpGet reused = get(down.url("/ok", "reuse"), "reuse");
        traced("reuse", () -> send(client, reused, "reuse"));
        plain("reuse", () -> send(client, reused, "reuse"));
        // the ResponseHandler overload delegates to the others: still one request
        traced("handler", () -> {
            String body = client.execute(get(down.url("/ok", "handler"), "handler"),
                    response -> response.getStatusLine().getStatusCode() + ":" + EntityUtils.toString(response.getEntity()));
            Downstream.status("handler", Integer.parseInt(body.substring(0, 3)), body.substring(4));
        });
        // execute(HttpHost, HttpRequest) with a request that is not an HttpUriRequest
        traced("host-target", () -> {
            HttpRequest request = new BasicHttpRequest("GET", "/ok?tag=host-target");
            try (CloseableHttpResponse response = client.execute(new HttpHost("127.0.0.1", down.port), request)) {
                Downstream.status("host-target", response.getStatusLine().getStatusCode(),
                        EntityUtils.toString(response.getEntity()));
            }
        });
        // a redirect is followed inside the exec chain: one request, both hops carry the header
        traced("redirect", () -> send(client, get(down.url("/redirect", "redirect"), "redirect"), "redirect"));
        // a 5xx under a span
        traced("fail", () -> send(client, get(down.url("/fail", "fail"), "fail"), "fail"));
        // HttpClients.createMinimal(): MinimalHttpClient
        CloseableHttpClient minimal = HttpClients.createMinimal();
        traced("minimal", () -> send(minimal, get(down.url("/ok", "minimal"), "minimal"), "minimal"));
        // the deprecated DefaultHttpClient: AbstractHttpClient
        DefaultHttpClient legacy = new DefaultHttpClient();
        traced("legacy", () -> {
            try (CloseableHttpResponse response = legacy.execute(get(down.url("/ok", "legacy"), "legacy"))) {
                Downstream.status("legacy", response.getStatusLine().getStatusCode(), EntityUtils.toString(response.getEntity()));
            }
        });
        // connection refused, traced and not: the caller gets the library's own exception
        traced("refused-traced", () -> send(client, get(down.refusedUrl("refused-traced"), "refused-traced"), "refused-traced"));
        plain("refused-plain", () -> send(client, get(down.refusedUrl("refused-plain"), "refused-plain"), "refused-plain"));
        // without any current span: counted, never traced, no header
        for (int i = 0; i < PLAIN_CALLS; i++) {
            String tag = "plain" + i;
            plain(tag, () -> send(client, get(down.url("/ok", tag), tag), tag));
        }
        plain("missing", () -> send(client, get(down.url("/missing", "missing"), "missing"), "missing"));
        // an inbound tracestate is passed on
        Downstream.tracedWithState("tracestate", "vendor=argus",
                () -> send(client, get(down.url("/ok", "tracestate"), "tracestate"), "tracestate"));
        Downstream.finish();
    }

    private static HttpGet get(String url, String tag) {
        HttpGet get = new HttpGet(url);
        get.setHeader("x-test", tag);
        return get;
    }

    private static void send(CloseableHttpClient client, HttpGet get, String tag) throws Exception {
        try (CloseableHttpResponse response = client.execute(get)) {
            Downstream.status(tag, response.getStatusLine().getStatusCode(), EntityUtils.toString(response.getEntity()));
        }
    }

    private static void afterCall(String tag, HttpGet get) {
        Header traceparent = get.getFirstHeader("traceparent");
        Header tracestate = get.getFirstHeader("tracestate");
        Downstream.afterCall(tag, traceparent == null ? null : traceparent.getValue(),
                tracestate == null ? null : tracestate.getValue());
    }
}
