package io.argus.collector.alerting.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.argus.collector.alerting.state.AlertEvent;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * POSTs a JSON body to a URL: the generic webhook ({@link AlertMessage#webhookPayload()}) or a Slack-compatible
 * incoming webhook ({@link AlertMessage#slackPayload()}). Any 2xx answer is a delivery; anything else, a timeout
 * or a refused connection is a failure. The URL is a secret and appears in no message.
 */
final class WebhookChannel implements NotificationChannel {
    private final HttpClient client;
    private final URI url;
    private final Duration timeout;
    private final ObjectMapper json;
    private final BiFunction<AlertEvent, String, Map<String, Object>> body;
    private final Supplier<String> baseUrl;

    WebhookChannel(HttpClient client, String url, Duration timeout, ObjectMapper json,
                   Supplier<String> baseUrl, BiFunction<AlertEvent, String, Map<String, Object>> body) {
        this.client = client;
        this.url = URI.create(url);
        this.timeout = timeout;
        this.json = json;
        this.baseUrl = baseUrl;
        this.body = body;
    }

    static WebhookChannel generic(HttpClient client, String url, Duration timeout, ObjectMapper json,
                                  Supplier<String> baseUrl) {
        return new WebhookChannel(client, url, timeout, json, baseUrl,
                (e, base) -> new AlertMessage(e, base).webhookPayload());
    }

    static WebhookChannel slack(HttpClient client, String url, Duration timeout, ObjectMapper json,
                                Supplier<String> baseUrl) {
        return new WebhookChannel(client, url, timeout, json, baseUrl,
                (e, base) -> new AlertMessage(e, base).slackPayload());
    }

    @Override
    public void send(AlertEvent event) throws IOException, InterruptedException {
        byte[] payload = json.writeValueAsBytes(body.apply(event, baseUrl.get()));
        HttpRequest req = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Content-Type", "application/json; charset=utf-8")
                .header("User-Agent", "argus-collector")
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload))
                .build();
        HttpResponse<Void> res;
        try {
            res = client.send(req, HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // the JDK's messages may quote the URI: say what happened without it
            throw new IOException(e.getClass().getSimpleName() + " from " + url.getHost(), null);
        }
        if (res.statusCode() / 100 != 2) {
            throw new IOException("answered " + res.statusCode());
        }
    }
}
