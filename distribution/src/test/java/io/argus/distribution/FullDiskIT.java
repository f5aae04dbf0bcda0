package io.argus.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.collector.Collector;
import io.argus.collector.CollectorConfig;
import io.argus.collector.testing.SmallDisk;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The reproduction with the assembled agent: a service traced at 100 % streams to a collector whose data
 * directory is a small file system (see {@link SmallDisk}) that fills up under traffic and then gets its space back.
 * While it is full the collector refuses the agent, which keeps what was not acknowledged; the UI's agent pane says
 * storage is failing; afterwards every span the service made is stored and the agent dropped none.
 */
class FullDiskIT {
    static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void everySpanMadeWhileTheDiskWasFullIsStoredOnceItHasRoomAgain() throws Exception {
        UiBrowserIT.requireChromium();
        Path tmp = Files.createTempDirectory("argus-full-disk");
        try (SmallDisk disk = SmallDisk.create(tmp)) {
            System.out.println("FullDiskIT: the full disk is " + disk.kind());
            try (Collector collector = Collector.start(CollectorConfig.builder().ingestPort(0).httpPort(0)
                    .otlpHttpPort(0).dataDir(disk.dir()).build())) {
                CollectorClient api = new CollectorClient(collector.httpPort());
                Map.Entry<AgentApp, Integer> solo = SampleCluster.startService(System.getProperty("java.home"),
                        "full-disk", app -> app.collector(collector.ingestPort()).samplingRate(100)
                                .agent("argus.metrics.interval", "1s").agent("argus.exporter.maxBackoff", "2s"),
                        "--name", "solo", "--port", "0");
                try (AgentApp app = solo.getKey()) {
                    int port = solo.getValue();
                    int made = requests(port, 100, 0);
                    await("the first spans stored", () -> stored(api) == 100);

                    disk.fill();
                    long filled = System.nanoTime();
                    while (System.nanoTime() - filled < Duration.ofSeconds(8).toNanos()) {
                        made += requests(port, 10, 50);
                    }
                    assertThat(collector.sink().accepting()).as("storage failing").isFalse();
                    assertThat(api.get("/api/status").path("storage").path("state").asText()).isEqualTo("failing");
                    assertThat(pageSays(collector.httpPort())).contains("storage failing");

                    disk.free();
                    made += requests(port, 50, 20);
                    int expected = made;
                    await("every span stored after the disk has room again", () -> stored(api) == expected);
                    JsonNode agent = CollectorClient.await("the agent's heartbeat after the outage", WAIT, api::agents,
                            a -> a.size() == 1 && a.get(0).path("sentSpans").asLong() == expected).get(0);
                    assertThat(agent.path("droppedSpans").asLong()).as("spans the agent dropped").isZero();
                    assertThat(api.get("/api/status").path("storage").path("state").asText()).isEqualTo("ok");
                    System.out.println("FullDiskIT: " + made + " spans made and stored, none dropped");
                }
            }
        }
    }

    /** {@code n} traced requests, {@code pauseMillis} apart; returns {@code n}. */
    private static int requests(int port, int n, long pauseMillis) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            assertThat(SampleCluster.get(port, "/solo/hello")).isEqualTo(200);
            Thread.sleep(pauseMillis);
        }
        return n;
    }

    /** Spans of the service stored, each once. */
    private static long stored(CollectorClient api) {
        long spans = 0;
        for (JsonNode t : api.traces("solo", 1000)) {
            spans += t.path("spanCount").asLong();
        }
        return spans;
    }

    /** The agent pane's storage line, as the browser shows it. */
    private static String pageSays(int httpPort) {
        WebDriver browser = UiBrowserIT.headlessChromium();
        try {
            browser.get("http://127.0.0.1:" + httpPort + "/");
            new WebDriverWait(browser, Duration.ofSeconds(30))
                    .until(ExpectedConditions.visibilityOfElementLocated(By.id("storageFailing")));
            return browser.findElement(By.id("storageFailing")).getText();
        } finally {
            browser.quit();
        }
    }

    private static void await(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!done.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
