package io.argus.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.argus.collector.testing.AlertRulesFiles;
import io.argus.collector.testing.WebhookReceiver;
import io.argus.cluster.process.ManagedProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alerting on the Druid query node, through the fleet command ({@link FleetMain} in its own JVM with
 * {@code --alert-rules}): Kafka, Druid, two ingest collectors, the query collector and the sample services with
 * the real agent. When front's {@code /front/fail} starts failing, the query node's evaluator (the same one as the
 * embedded collector's, over Druid SQL) fires within one evaluation period of the failed calls being queryable,
 * posts to a real webhook receiver and e-mails through a real SMTP server (GreenMail), and resolves when the
 * errors stop. Profile {@code druid} (about 5 min on two busy cores, most of it Kafka and Druid starting).
 */
class AlertingDruidClusterIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofMinutes(15);
    private static final long INTERVAL_MS = 5_000;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path work;

    @Test
    void theQueryNodeFiresNotifiesAndResolvesFromDruid() throws Exception {
        GreenMail smtp = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
        smtp.start();
        ScheduledExecutorService traffic = Executors.newSingleThreadScheduledExecutor();
        ManagedProcess fleet = null;
        try (WebhookReceiver receiver = new WebhookReceiver()) {
            Path rules = AlertRulesFiles.frontFailing(work, receiver.url("/hook"), smtp.getSmtp().getPort(), "5s",
                    "1m");
            List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), FleetMain.class.getName(),
                    "--work", work.resolve("fleet").toString(), "--rate", "0",
                    "--agent", Path.of(System.getProperty("argus.agent.dir"), "argus-agent.jar").toString(),
                    "--collector-class-path", System.getProperty("java.class.path"),
                    "--service-class-path", FleetDruidClusterIT.serviceClassPath(),
                    "--alert-rules", rules.toString());
            fleet = ManagedProcess.startIsolated("fleet-alerting", cmd, null, Map.of(),
                    Path.of("target", "app-logs", "fleet-alerting.log"),
                    Map.of("up", Pattern.compile("Ctrl-C stops everything")));
            assertThat(fleet.awaitMatch("up", START.toMillis()))
                    .as("fleet up; last output:%n%s", fleet.describeTail(40)).isNotNull();
            String out = String.join("\n", fleet.output());
            String query = FleetDruidClusterIT.printed(out, "query UI and API\\s+(\\S+)");
            String front = FleetDruidClusterIT.printed(out, "service front\\s+(\\S+)/front/call");

            AtomicBoolean failing = new AtomicBoolean();
            traffic.scheduleAtFixedRate(() -> {
                get(front + "/front/call");
                if (failing.get()) {
                    get(front + "/front/fail");
                }
            }, 0, 200, TimeUnit.MILLISECONDS);
            // the healthy route reaches Druid and the rule is evaluated, quiet, over it
            await(query + "api/metrics/http?service=front&kind=server", rows -> rows.size() > 0, Duration.ofMinutes(10));
            await(query + "api/alerts", a -> a.get(0).path("evaluatedAtMs").asLong() > 0
                    && a.get(0).path("state").asText().equals("inactive")
                    && a.get(0).path("error").isNull(), Duration.ofMinutes(2));

            failing.set(true);
            long stored = 0;
            long deadline = System.currentTimeMillis() + Duration.ofMinutes(5).toMillis();
            while (stored == 0 && System.currentTimeMillis() < deadline) {
                JsonNode cells = json(query + "api/metrics/http?service=front&kind=server");
                if (StreamSupport.stream(cells.spliterator(), false).anyMatch(c -> c.path("errors").asLong() > 0)) {
                    stored = System.currentTimeMillis();
                }
                Thread.sleep(100);
            }
            assertThat(stored).as("failed calls queryable from Druid").isPositive();
            WebhookReceiver.Post firing = receiver.next("/hook", Duration.ofMinutes(2).toMillis());
            assertThat(firing).as("firing webhook").isNotNull();
            assertThat(firing.body().path("status").asText()).isEqualTo("firing");
            assertThat(firing.body().path("value").asDouble()).isGreaterThan(0.2);
            // one evaluation period after the errors were queryable, plus the query node's own Druid round trips
            System.out.printf("query node: firing %d ms after the failed calls were queryable%n",
                    firing.atMs() - stored);
            assertThat(firing.atMs() - stored).isLessThanOrEqualTo(INTERVAL_MS + 2_000);
            assertThat(smtp.waitForIncomingEmail(30_000, 1)).isTrue();
            assertThat(smtp.getReceivedMessages()[0].getSubject()).isEqualTo("[FIRING] front failing (front)");

            failing.set(false);
            WebhookReceiver.Post resolved = receiver.next("/hook", Duration.ofMinutes(4).toMillis());
            assertThat(resolved).as("resolved webhook").isNotNull();
            assertThat(resolved.body().path("status").asText()).isEqualTo("resolved");
            assertThat(resolved.body().path("dedupKey").asText()).isEqualTo(firing.body().path("dedupKey").asText());
            assertThat(smtp.waitForIncomingEmail(30_000, 2)).isTrue();
            assertThat(smtp.getReceivedMessages()[1].getSubject()).isEqualTo("[RESOLVED] front failing (front)");
        } finally {
            traffic.shutdownNow();
            if (fleet != null) {
                fleet.stop(120_000);
            }
            smtp.stop();
        }
    }

    private void get(String url) {
        try {
            http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            // a slow answer while Druid starts is retried by the next tick
        }
    }

    private JsonNode json(String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET %s: %s", url, r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private void await(String url, java.util.function.Predicate<JsonNode> done, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = json(url);
            if (done.test(last)) {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("timed out on " + url + "; last: " + last);
    }
}
