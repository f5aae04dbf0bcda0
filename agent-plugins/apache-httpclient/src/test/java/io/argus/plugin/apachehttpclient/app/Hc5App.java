package io.argus.plugin.apachehttpclient.app;

import io.argus.testing.app.Downstream;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.CloseableHttpResponse;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;
import org.apache.hc.core5.util.Timeout;

import static io.argus.testing.app.Downstream.plain;
import static io.argus.testing.app.Downstream.traced;

/**
 * The HttpClient 5.x (classic API) application under test (compiled against 5.0, run with each tested
 * 5.x release). See {@link Downstream} for the output it prints; the IT knows the calls by their tags.
 */
public final class Hc5App {

    public static final int PLAIN_CALLS = 4;

    private Hc5App() {
    }

    public static void main(String[] args) throws Exception {
        Downstream down = Downstream.start();
        RequestConfig config = RequestConfig.custom().setConnectTimeout(Timeout.ofSeconds(5))
                .setResponseTimeout(Timeout.ofSeconds(10)).build();
        CloseableHttpClient client = HttpClients.custom().setDefaultRequestConfig(config).build();

        traced("traced", () -> {
            HttpGet get = get(down.url("/ok", "traced"), "traced");
            send(client, get, "traced");
            afterCall("traced", get);
        });
        traced("user-header", () -> {
            HttpGet get = get(down.url("/ok", "user-header"), "user-header");
            get.setHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            get.setHeader("tracestate", "user=1");
            send(client, get, "user-header");
            afterCall("user-header", get);
        });
        HttpGet reused = get(down.url("/ok", "reuse"), "reuse");
        traced("reuse", () -> send(client, reused, "reuse"));
        plain("reuse", () -> send(client, reused, "reuse"));
        traced("handler", () -> {
            String body = client.execute(get(down.url("/ok", "handler"), "handler"),
                    response -> response.getCode() + ":" + EntityUtils.toString(response.getEntity()));
            Downstream.status("handler", Integer.parseInt(body.substring(0, 3)), body.substring(4));
        });
        traced("host-target", () -> {
            ClassicHttpRequest request = new BasicClassicHttpRequest("GET", "/ok?tag=host-target");
            try (CloseableHttpResponse response = client.execute(new HttpHost("127.0.0.1", down.port), request)) {
                Downstream.status("host-target", response.getCode(), EntityUtils.toString(response.getEntity()));
            }
        });
        traced("redirect", () -> send(client, get(down.url("/redirect", "redirect"), "redirect"), "redirect"));
        traced("fail", () -> send(client, get(down.url("/fail", "fail"), "fail"), "fail"));
        // (with an explicit context: 5.0's MinimalHttpClient throws a NullPointerException without one)
        CloseableHttpClient minimal = HttpClients.createMinimal();
        traced("minimal", () -> {
            try (CloseableHttpResponse response = minimal.execute(get(down.url("/ok", "minimal"), "minimal"),
                    HttpClientContext.create())) {
                Downstream.status("minimal", response.getCode(), EntityUtils.toString(response.getEntity()));
            }
        });
        traced("refused-traced", () -> send(client, get(down.refusedUrl("refused-traced"), "refused-traced"), "refused-traced"));
        plain("refused-plain", () -> send(client, get(down.refusedUrl("refused-plain"), "refused-plain"), "refused-plain"));
        for (int i = 0; i < PLAIN_CALLS; i++) {
            String tag = "plain" + i;
            plain(tag, () -> send(client, get(down.url("/ok", tag), tag), tag));
        }
        plain("missing", () -> send(client, get(down.url("/missing", "missing"), "missing"), "missing"));
        Downstream.tracedWithState("tracestate", "vendor=argus",
                () -> send(client, get(down.url("/ok", "tracestate"), "tracestate"), "tracestate"));
        Downstream.finish();
    }

    private static HttpGet get(String url, String tag) {
        HttpGet get = new HttpGet(url);
        get.setHeader("x-test", tag);
        return get;
    }

    @SuppressWarnings("deprecation")
    private static void send(CloseableHttpClient client, HttpGet get, String tag) throws Exception {
        try (CloseableHttpResponse response = client.execute(get)) {
            Downstream.status(tag, response.getCode(), EntityUtils.toString(response.getEntity()));
        }
    }

    private static void afterCall(String tag, HttpGet get) {
        Header traceparent = get.getFirstHeader("traceparent");
        Header tracestate = get.getFirstHeader("tracestate");
        Downstream.afterCall(tag, traceparent == null ? null : traceparent.getValue(),
                tracestate == null ? null : tracestate.getValue());
    }
}
