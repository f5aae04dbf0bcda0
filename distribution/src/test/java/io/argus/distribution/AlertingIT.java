package io.argus.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.AlertRulesFiles;
import io.argus.collector.testing.Api;
import io.argus.collector.testing.WebhookReceiver;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Alerting end to end: two sample service JVMs with the assembled agent (default settings but 100% sampling, so
 * that the alert's trace link finds traces) report to a collector with a rules file. When front's
 * {@code /front/fail} starts failing, the error-rate rule fires within one evaluation period of the errors being
 * stored, posts to a real webhook receiver and sends an e-mail through a real SMTP server (GreenMail); the UI shows
 * the alert, the badges and links to the series and traces; when the errors stop, it resolves and says so again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AlertingIT {
    static final long INTERVAL_MS = 2_000;
    static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    static GreenMail smtp;
    static WebhookReceiver receiver;
    static Collector collector;
    static Api api;
    static SampleCluster cluster;
    static ScheduledExecutorService traffic;
    static final AtomicBoolean failing = new AtomicBoolean();
    static WebhookReceiver.Post firing;
    static long failingSinceMs;
    static long errorsStoredMs;

    @BeforeAll
    static void start() throws Exception {
        UiBrowserIT.requireChromium();
        smtp = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
        smtp.start();
        receiver = new WebhookReceiver();
        Path rules = AlertRulesFiles.frontFailing(dir, receiver.url("/hook"), smtp.getSmtp().getPort(), "2s", "30s");
        collector = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0).otlpHttpPort(0)
                .dataDir(dir.resolve("data")).alertRules(rules).build());
        api = new Api(collector);
        cluster = SampleCluster.start(System.getProperty("java.home"), "alerting",
                app -> app.collector(collector.ingestPort()).samplingRate(100));
        // steady traffic on both routes from the first answer on; /front/fail answers 500 only while failing
        traffic = Executors.newSingleThreadScheduledExecutor();
        traffic.scheduleAtFixedRate(() -> {
            cluster.get("/front/call");
            if (failing.get()) {
                cluster.get("/front/fail");
            }
        }, 0, 200, TimeUnit.MILLISECONDS);
    }

    @AfterAll
    static void stop() {
        if (traffic != null) {
            traffic.shutdownNow();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (collector != null) {
            collector.close();
        }
        if (receiver != null) {
            receiver.close();
        }
        if (smtp != null) {
            smtp.stop();
        }
    }

    @Test
    @Order(1)
    void firesWithinOneEvaluationPeriodOfTheErrorsAndNotifies() throws Exception {
        // evaluated and quiet while only the healthy route is called
        api.await("/api/alerts", a -> a.get(0).get("evaluatedAtMs").asLong() > 0
                && a.get(0).get("state").asText().equals("inactive"));
        failingSinceMs = System.currentTimeMillis();
        failing.set(true);
        // when the failed calls become visible to queries (the agent ships its cells every 10 s)
        AtomicLong stored = new AtomicLong();
        Thread watcher = new Thread(() -> {
            while (stored.get() == 0) {
                JsonNode cells = api.json("/api/metrics/http?service=front&kind=server");
                if (StreamSupport.stream(cells.spliterator(), false).anyMatch(c -> c.get("errors").asLong() > 0)) {
                    stored.set(System.currentTimeMillis());
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        watcher.setDaemon(true);
        watcher.start();
        firing = receiver.next("/hook", WAIT.toMillis());
        watcher.join(5_000);
        errorsStoredMs = stored.get();
        assertThat(firing).as("firing webhook").isNotNull();
        assertThat(errorsStoredMs).as("errors seen by the API").isPositive();
        assertThat(firing.body().get("status").asText()).isEqualTo("firing");
        assertThat(firing.body().get("rule").asText()).isEqualTo("front failing");
        assertThat(firing.body().get("value").asDouble()).isEqualTo(1.0);
        // one evaluation period after the errors were stored (plus the 100 ms poll and the post's own trip)
        assertThat(firing.atMs() - errorsStoredMs).isLessThanOrEqualTo(INTERVAL_MS + 1_000);
        // and at most one agent flush (10 s) and one period after the route started failing
        assertThat(firing.atMs() - failingSinceMs).isLessThanOrEqualTo(10_000 + INTERVAL_MS + 3_000);
        assertThat(smtp.waitForIncomingEmail(15_000, 1)).isTrue();
        assertThat(smtp.getReceivedMessages()[0].getSubject()).isEqualTo("[FIRING] front failing (front)");
    }

    @Test
    @Order(2)
    void theUiShowsTheAlertItsBadgesAndLinks() throws Exception {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(UiBrowserIT.CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(UiBrowserIT.CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1500,1000", "--lang=en-US");
        WebDriver browser = new ChromeDriver(service, options);
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            wait.ignoring(StaleElementReferenceException.class);
            String home = collector.httpUrl();
            browser.get(home + "#view=alerts");
            wait.until(d -> !d.findElements(By.cssSelector("#alertTable tr.alert-row[data-state='firing']")).isEmpty());
            assertThat(browser.findElement(By.cssSelector("#alertTable tr.alert-row")).getText())
                    .contains("FIRING", "front failing", "front /front/fail", "100.0 %", "above 20.0 %");
            assertThat(browser.findElement(By.id("alertCount")).getText()).isEqualTo("1");
            assertThat(browser.findElement(By.cssSelector("#services li[data-service='front'] .badge")).getText())
                    .isEqualTo("1");
            assertThat(browser.findElements(By.cssSelector("#services li[data-service='back'] .badge"))).isEmpty();
            assertThat(browser.findElement(By.cssSelector("#historyTable tr.history-row")).getText())
                    .contains("front failing", "INACTIVE", "FIRING");
            shot(browser, "alerts-firing");

            // the series link: front's RED charts of the failing route, over the alert's window, from its URL
            browser.findElement(By.cssSelector("#alertTable a.series-link")).click();
            wait.until(d -> d.findElement(By.id("redTitle")).getText().equals("front \u00b7 /front/fail"));
            assertThat(browser.getCurrentUrl()).contains("#view=red", "service=front", "route=%2Ffront%2Ffail", "from=");
            // the three charts of the route over the alert's window (drawn, or "no data" where the window had none)
            wait.until(d -> d.findElements(By.cssSelector("#redCharts .chart")).size() == 3);
            shot(browser, "alert-series");

            // the traces link: failed traces of the route from the window
            browser.get(home + "#view=alerts");
            browser.navigate().refresh();
            wait.until(d -> !d.findElements(By.cssSelector("#alertTable a.traces-link")).isEmpty());
            browser.findElement(By.cssSelector("#alertTable a.traces-link")).click();
            wait.until(d -> !d.findElements(By.cssSelector("#searchResults tr.trace-row")).isEmpty());
            assertThat(browser.findElement(By.id("sStatus")).getAttribute("value")).isEqualTo("error");
            assertThat(browser.findElement(By.id("sRoute")).getAttribute("value")).isEqualTo("/front/fail");
            assertThat(browser.findElements(By.cssSelector("#searchResults tr.trace-row td.name")))
                    .allSatisfy(td -> assertThat(td.getText()).isEqualTo("GET /front/fail"));
            shot(browser, "alert-traces");

            // the map's node of the alerting service
            browser.get(home + "#view=map&range=15m");
            browser.navigate().refresh();
            wait.until(d -> !d.findElements(By.cssSelector("#map g.node[data-id='front']")).isEmpty());
            assertThat(browser.findElement(By.cssSelector("#map g.node[data-id='front']")).getAttribute("class"))
                    .contains("alerting");
            assertThat(browser.findElement(By.cssSelector("#map g.node[data-id='back']")).getAttribute("class"))
                    .doesNotContain("alerting");
            shot(browser, "alert-map");
        } finally {
            browser.quit();
        }
    }

    @Test
    @Order(3)
    void resolvesWhenTheErrorsStop() throws Exception {
        failing.set(false);
        WebhookReceiver.Post resolved = receiver.next("/hook", WAIT.toMillis());
        assertThat(resolved).as("resolved webhook").isNotNull();
        assertThat(resolved.body().get("status").asText()).isEqualTo("resolved");
        assertThat(resolved.body().get("dedupKey").asText()).isEqualTo(firing.body().get("dedupKey").asText());
        assertThat(smtp.waitForIncomingEmail(15_000, 2)).isTrue();
        assertThat(smtp.getReceivedMessages()[1].getSubject()).isEqualTo("[RESOLVED] front failing (front)");
        assertThat(api.json("/api/alerts").get(0).get("state").asText()).isEqualTo("resolved");
        assertThat(api.json("/api/alerts/history").findValuesAsText("to")).containsExactly("resolved", "firing");
    }

    static void shot(WebDriver browser, String name) throws Exception {
        Path shots = Path.of(System.getProperty("argus.home", "target/argus")).getParent().resolve("ui-screenshots");
        Files.createDirectories(shots);
        File png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        Files.copy(png.toPath(), shots.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
