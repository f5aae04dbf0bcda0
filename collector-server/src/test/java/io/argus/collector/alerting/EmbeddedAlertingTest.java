package io.argus.collector.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.argus.collector.Collector;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.TestAgent;
import io.argus.collector.testing.TestConfigs;
import io.argus.collector.testing.WebhookReceiver;
import io.argus.protocol.CallMetric;
import io.argus.protocol.CallMetricKind;
import io.argus.protocol.MetricBatch;
import jakarta.mail.internet.MimeMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An embedded collector with a rules file, fed call metric cells by a protocol-level agent: an error-rate rule
 * fires, posts to a real webhook receiver, a Slack-style receiver and a real SMTP server (GreenMail), while a
 * hanging webhook delays none of them; it resolves when the errors stop. The rules file reloads on change and a
 * malformed version is refused with its line while the rules in force stay.
 */
class EmbeddedAlertingTest {
    static final List<Long> BOUNDS = List.of(1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L);

    @TempDir
    Path dir;
    GreenMail smtp;
    WebhookReceiver receiver;
    Collector collector;
    Api api;
    ScheduledExecutorService traffic;
    final AtomicInteger errorsPerBatch = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        smtp = new GreenMail(ServerSetupTest.SMTP.dynamicPort())
                .withConfiguration(GreenMailConfiguration.aConfig().withUser("argus", "s3cret-pass"));
        smtp.start();
        receiver = new WebhookReceiver();
        Files.writeString(dir.resolve("hook-url"), receiver.url("/hook") + "\n");
        Files.writeString(dir.resolve("smtp-password"), "s3cret-pass\n");
    }

    @AfterEach
    void stop() {
        if (traffic != null) {
            traffic.shutdownNow();
        }
        if (collector != null) {
            collector.close();
        }
        receiver.close();
        smtp.stop();
    }

    String rules(String threshold) {
        return """
                evaluation_interval: 1s
                channels:
                  - name: hook
                    type: webhook
                    url_file: hook-url
                  - name: chat
                    type: slack
                    url: %s
                  - name: stuck
                    type: webhook
                    url: %s
                    timeout: 20s
                    retries: 0
                  - name: mail
                    type: email
                    smtp_host: 127.0.0.1
                    smtp_port: %d
                    tls: none
                    username: argus
                    password_file: smtp-password
                    from: argus@example.com
                    to: oncall@example.com
                rules:
                  - name: pay errors
                    service: shop
                    route: /pay
                    signal: error_rate
                    above: %s
                    window: 10s
                    severity: critical
                    channels: [stuck, hook, chat, mail]
                """.formatted(receiver.url("/slack"), receiver.url("/hang"), smtp.getSmtp().getPort(), threshold);
    }

    Path startWithRules(String threshold) throws Exception {
        Path rulesFile = Files.writeString(dir.resolve("rules.yaml"), rules(threshold));
        collector = Collector.start(TestConfigs.ephemeral().dataDir(dir.resolve("data")).alertRules(rulesFile).build());
        api = new Api(collector);
        return rulesFile;
    }

    /** Sends one 10-call cell of shop's POST /pay every 500 ms, {@link #errorsPerBatch} of them failed. */
    void startTraffic(TestAgent agent) {
        traffic = Executors.newSingleThreadScheduledExecutor();
        traffic.scheduleAtFixedRate(() -> {
            try {
                int errors = errorsPerBatch.get();
                agent.metrics(MetricBatch.newBuilder().setTimestampMs(System.currentTimeMillis()).setIntervalMs(500)
                        .addAllBucketBoundsNanos(BOUNDS).addCalls(CallMetric.newBuilder()
                                .setKind(CallMetricKind.CALL_METRIC_KIND_SERVER).setMethod("POST").setTarget("/pay")
                                .setStatus(errors > 0 ? 500 : 200).setCount(10).setErrors(errors)
                                .setSumNanos(10 * 5_000_000L).setMinNanos(2_000_000L).setMaxNanos(9_000_000L)
                                .addAllBucketCounts(List.of(0L, 10L))).build());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, 0, 500, TimeUnit.MILLISECONDS);
    }

    @Test
    void anErrorRateRuleFiresNotifiesEveryChannelAndResolves() throws Exception {
        startWithRules("10%");
        try (TestAgent agent = new TestAgent(collector.ingestPort())) {
            agent.hello("shop", "shop-1");
            startTraffic(agent);
            api.await("/api/alerts", a -> a.size() == 1 && a.get(0).get("evaluatedAtMs").asLong() > 0
                    && a.get(0).get("value").asDouble() == 0.0);
            assertThat(api.json("/api/alerts").get(0).get("state").asText()).isEqualTo("inactive");

            long failingSince = System.currentTimeMillis();
            errorsPerBatch.set(5);
            WebhookReceiver.Post firing = receiver.next("/hook", 15_000);
            assertThat(firing).as("the generic webhook's firing post").isNotNull();
            // one evaluation period (1 s) after the errors were stored, plus the cells' own 500 ms cadence
            assertThat(firing.atMs() - failingSince).isLessThan(5_000);
            JsonNode p = firing.body();
            assertThat(p.get("version").asInt()).isEqualTo(1);
            assertThat(p.get("status").asText()).isEqualTo("firing");
            assertThat(p.get("rule").asText()).isEqualTo("pay errors");
            assertThat(p.get("service").asText()).isEqualTo("shop");
            assertThat(p.get("scope").get("route").asText()).isEqualTo("/pay");
            assertThat(p.get("signal").asText()).isEqualTo("error_rate");
            assertThat(p.get("threshold").asDouble()).isEqualTo(0.1);
            assertThat(p.get("value").asDouble()).isGreaterThan(0.1).isLessThanOrEqualTo(0.5);
            assertThat(p.get("severity").asText()).isEqualTo("critical");
            assertThat(p.get("links").get("series").asText()).startsWith(collector.httpUrl() + "#view=red&service=shop")
                    .contains("route=%2Fpay");
            assertThat(p.get("links").get("traces").asText()).contains("view=traces", "status=error", "from=", "to=");
            String dedupKey = p.get("dedupKey").asText();

            WebhookReceiver.Post chat = receiver.next("/slack", 5_000);
            assertThat(chat).as("the Slack-style post").isNotNull();
            assertThat(chat.body().get("text").asText()).contains("*FIRING*", "shop /pay: error rate", "|series>");
            assertThat(smtp.waitForIncomingEmail(10_000, 1)).as("the e-mail").isTrue();
            MimeMessage mail = smtp.getReceivedMessages()[0];
            assertThat(mail.getSubject()).isEqualTo("[FIRING] pay errors (shop)");
            assertThat(mail.getAllRecipients()[0].toString()).isEqualTo("oncall@example.com");
            assertThat(mail.getHeader("X-Argus-Dedup-Key")[0]).isEqualTo(dedupKey);
            assertThat((String) mail.getContent()).contains("error rate", "view=traces");
            // the hanging receiver got its post, and held up nobody: the others arrived meanwhile
            assertThat(receiver.hangs.get()).isEqualTo(1);

            JsonNode alert = api.json("/api/alerts").get(0);
            assertThat(alert.get("state").asText()).isEqualTo("firing");
            assertThat(alert.get("dedupKey").asText()).isEqualTo(dedupKey);
            assertThat(alert.get("links").get("series").asText()).startsWith("/#view=red&service=shop");

            errorsPerBatch.set(0);
            WebhookReceiver.Post resolved = receiver.next("/hook", 25_000);
            assertThat(resolved).as("the resolved post").isNotNull();
            assertThat(resolved.body().get("status").asText()).isEqualTo("resolved");
            assertThat(resolved.body().get("dedupKey").asText()).isEqualTo(dedupKey);
            assertThat(receiver.next("/slack", 5_000).body().get("text").asText()).contains("*RESOLVED*");
            assertThat(smtp.waitForIncomingEmail(10_000, 2)).isTrue();
            assertThat(smtp.getReceivedMessages()[1].getSubject()).isEqualTo("[RESOLVED] pay errors (shop)");

            JsonNode history = api.json("/api/alerts/history?service=shop");
            assertThat(history.findValuesAsText("to")).containsExactly("resolved", "firing");
            // the channels' counters; no secret anywhere in what the API shows
            String shown = api.get("/api/alerts/rules").body();
            assertThat(shown).contains("\"secretSource\":\"file:" + dir.resolve("hook-url"))
                    .doesNotContain(receiver.url("/hook"), receiver.url("/slack"), "s3cret-pass");
            JsonNode channels = api.json("/api/alerts/rules").get("channels");
            assertThat(channels.findValuesAsText("name")).containsExactly("hook", "chat", "stuck", "mail");
            assertThat(channels.get(0).get("sent").asLong()).isEqualTo(2);
            assertThat(channels.get(2).get("sent").asLong()).isZero();
            assertThat(api.get("/metrics").body())
                    .contains("argus_collector_alert_notifications_total{channel=\"hook\",outcome=\"sent\"} 2.0");
        }
    }

    @Test
    void aMalformedFileAtStartStopsTheStartNamingTheLine() throws Exception {
        Path rulesFile = Files.writeString(dir.resolve("rules.yaml"),
                "rules:\n  - name: a\n    service: x\n    signal: nope\n    above: 1\n");
        assertThatThrownBy(() -> Collector.start(TestConfigs.ephemeral().dataDir(dir.resolve("data"))
                .alertRules(rulesFile).build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("line 4: unknown signal 'nope'");
    }

    @Test
    void aChangedFileIsTakenAndAMalformedOneIsRefusedWithItsLine() throws Exception {
        Path rulesFile = startWithRules("10%");
        assertThat(api.json("/api/alerts/rules").get("rules").get(0).get("threshold").asDouble()).isEqualTo(0.1);

        Files.writeString(rulesFile, rules("25%"));
        api.await("/api/alerts/rules", r -> r.get("rules").get(0).get("threshold").asDouble() == 0.25);

        Files.writeString(rulesFile, rules("25%").replace("    window: 10s", "    window: ten seconds"));
        JsonNode refused = api.await("/api/alerts/rules", r -> !r.get("file").get("error").isNull());
        assertThat(refused.get("file").get("errorLine").asInt()).isEqualTo(29);
        assertThat(refused.get("file").get("error").asText()).startsWith("line 29: 'window' must be a length of time");
        // the rules read before stay in force
        assertThat(refused.get("rules")).hasSize(1);
        assertThat(refused.get("rules").get(0).get("threshold").asDouble()).isEqualTo(0.25);
        assertThat(refused.get("rules").get(0).get("windowMs").asLong()).isEqualTo(10_000);

        Files.writeString(rulesFile, rules("30%"));
        JsonNode fixed = api.await("/api/alerts/rules", r -> r.get("file").get("error").isNull()
                && r.get("rules").get(0).get("threshold").asDouble() == 0.3);
        assertThat(fixed.get("file").get("errorLine").asInt()).isZero();
    }
}
