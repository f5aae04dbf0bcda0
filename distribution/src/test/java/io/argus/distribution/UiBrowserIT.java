package io.argus.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import io.argus.testing.TestCollector;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web UI in a real browser (Debian's chromium, driven through {@code /usr/bin/chromedriver}) against a
 * collector fed by three sample service JVMs with the assembled agent: {@code front} calls {@code back},
 * {@code front} also fails on purpose, and {@code gateway} calls a port nobody listens on (an external host
 * with errors on the service map). Each view is opened, a trace is clicked through to its spans, what is on
 * screen is asserted, and screenshots go to {@code target/ui-screenshots/}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UiBrowserIT {
    static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
    static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
    static final Duration WAIT = Duration.ofSeconds(90);
    static final Path SHOTS = Paths.get(System.getProperty("argus.home", "target/argus")).getParent()
            .resolve("ui-screenshots");
    static final int CALLS = 30;
    static final int FAILS = 5;
    static final int GATEWAY_CALLS = 4;

    static TestCollector collector;
    static SampleCluster cluster;
    static AgentApp gateway;
    static int deadPort;
    static WebDriver browser;
    static WebDriverWait wait;
    static String home;

    @BeforeAll
    static void start() throws Exception {
        requireChromium();
        collector = TestCollector.start();
        Consumer<AgentApp.Builder> agents = app -> app.collector(collector.ingestPort()).samplingRate(100)
                .agent("argus.metrics.interval", "1s");
        String javaHome = System.getProperty("java.home");
        cluster = SampleCluster.start(javaHome, "ui", agents);
        deadPort = TestCollector.freePort();
        Map.Entry<AgentApp, Integer> gw = SampleCluster.startService(javaHome, "ui", agents, "--name", "gateway",
                "--port", "0", "--downstream", "http://127.0.0.1:" + deadPort, "--downstream-name", "nowhere");
        gateway = gw.getKey();
        for (int i = 0; i < CALLS; i++) {
            assertThat(cluster.get("/front/call")).isEqualTo(200);
        }
        for (int i = 0; i < FAILS; i++) {
            assertThat(cluster.get("/front/fail")).isEqualTo(500);
        }
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < GATEWAY_CALLS; i++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + gw.getValue() + "/gateway/call")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(500);
        }
        // everything the views show is stored before the browser looks
        CollectorClient api = collector.client();
        CollectorClient.await("all traces", WAIT, () -> api.get("/api/traces?range=1h&limit=100"),
                t -> t.size() == CALLS + FAILS + GATEWAY_CALLS && StreamSupport.stream(t.spliterator(), false)
                        .filter(x -> x.path("rootName").asText().equals("GET /front/call"))
                        .allMatch(x -> x.path("spanCount").asInt() == 3));
        CollectorClient.await("front RED counts", WAIT, () -> api.get("/api/series/red?service=front&range=1h"),
                r -> StreamSupport.stream(r.path("points").spliterator(), false)
                        .mapToLong(p -> p.path("requests").asLong()).sum() == CALLS + FAILS);
        // two 30 s steps of the last hour, so that the JVM view's lines have two points
        CollectorClient.await("back JVM series", WAIT, () -> api.get("/api/series/jvm?service=back&range=1h"),
                j -> j.path("instances").size() == 1
                        && j.path("instances").get(0).path("series").path("jvm.heap.used").size() >= 2
                        && j.path("instances").get(0).path("series").path("jvm.threads.live").size() >= 2);

        Files.createDirectories(SHOTS);
        browser = headlessChromium();
        wait = new WebDriverWait(browser, Duration.ofSeconds(30)) {
            @Override
            protected RuntimeException timeoutException(String message, Throwable lastException) {
                shot("timeout-" + System.currentTimeMillis());
                String status = browser.findElements(By.id("status")).stream().map(WebElement::getText)
                        .findFirst().orElse("(no status line)");
                return super.timeoutException(message + "; the page's status line: " + status, lastException);
            }
        };
        // views redraw while a condition looks at them
        wait.ignoring(StaleElementReferenceException.class);
        home = "http://127.0.0.1:" + collector.httpPort() + "/";
    }

    /** Debian's Chromium, headless, through its WebDriver on a free port. */
    static WebDriver headlessChromium() {
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1500,1100", "--lang=en-US");
        return new ChromeDriver(service, options);
    }

    /** Fails with what to install: these tests never skip themselves, in CI or elsewhere. */
    static void requireChromium() {
        if (!Files.isExecutable(CHROMEDRIVER) || !Files.isExecutable(CHROMIUM)) {
            throw new AssertionError("the UI browser tests need Chromium and its WebDriver at " + CHROMIUM + " and "
                    + CHROMEDRIVER + ": install them with 'sudo apt-get install -y chromium chromium-driver' (Debian)"
                    + (System.getenv("CI") != null ? " in the CI image (.ci/run does)" : ""));
        }
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (collector != null) {
            collector.close();
        }
    }

    @Test
    @Order(1)
    void redChartsPerServiceAndRoute() {
        openFresh();
        WebElement front = wait.until(ExpectedConditions.elementToBeClickable(
                By.cssSelector("#services li[data-service='front']")));
        assertThat(texts("#services li[data-service]")).hasSize(3);
        front.click();
        wait.until(d -> text("#redTitle").equals("front"));
        awaitCharts("#redCharts", 3);
        assertThat(texts("#redCharts .c-title")).containsExactly("Requests per second", "Error rate", "Latency");
        // the route table: both server routes of front, with their exact counts
        wait.until(d -> rowOf("/front/fail") != null);
        assertThat(rowOf("/front/call").getText()).contains(String.valueOf(CALLS));
        assertThat(rowOf("/front/fail").getText()).contains(String.valueOf(FAILS));
        // uPlot's legend lists the series of the latency chart
        assertThat(browser.findElement(By.cssSelector("#redCharts .chart[data-title='Latency'] .u-legend")).getText())
                .contains("P50", "P95", "P99");
        shot("red-service");

        rowOf("/front/fail").click();
        wait.until(d -> text("#redTitle").equals("front \u00b7 /front/fail"));
        awaitCharts("#redCharts", 3);
        assertThat(browser.findElement(By.id("redAll")).isDisplayed()).isTrue();
        shot("red-route");
        browser.findElement(By.id("redAll")).click();
        wait.until(d -> text("#redTitle").equals("front"));
    }

    @Test
    @Order(2)
    void timeRangePickerAppliesToTheViews() {
        openFresh();
        awaitCharts("#redCharts", 3);
        // last 1 h: 30 s steps, 120 or 121 points
        assertThat(pointsOfFirstChart()).isBetween(120, 121);
        new Select(browser.findElement(By.id("range"))).selectByValue("15m");
        wait.until(d -> pointsOfFirstChart() >= 90 && pointsOfFirstChart() <= 91);
        new Select(browser.findElement(By.id("range"))).selectByValue("custom");
        assertThat(browser.findElement(By.id("customFrom")).isDisplayed()).isTrue();
        // a custom range the day before: nothing happened then
        long dayBefore = System.currentTimeMillis() - 86_400_000L;
        setLocalTime("customFrom", dayBefore - 3_600_000L);
        setLocalTime("customTo", dayBefore);
        browser.findElement(By.id("applyRange")).click();
        wait.until(d -> d.findElements(By.cssSelector("#redCharts .c-empty")).size() == 3);
        assertThat(text("#http")).contains("no calls in this range");
        shot("range-custom-empty");
        new Select(browser.findElement(By.id("range"))).selectByValue("1h");
        awaitCharts("#redCharts", 3);
    }

    @Test
    @Order(3)
    void serviceMapEdgesOpenTheirTraces() {
        openFresh();
        tab("map");
        wait.until(d -> d.findElements(By.cssSelector("#map g.node")).size() == 4);
        assertThat(attributes("#map g.node", "data-id")).containsExactlyInAnyOrder("back", "front", "gateway",
                "ext:127.0.0.1:" + deadPort);
        assertThat(attributes("#map g.node", "class")).contains("node external");
        WebElement frontBack = edge("front", "back");
        // counts, not a rate over the whole range (which read low while traffic started late in it)
        assertThat(frontBack.getText()).contains(CALLS + " calls").contains("0.0 % err").contains("p95");
        WebElement external = edge("gateway", "ext:127.0.0.1:" + deadPort);
        assertThat(external.getText()).contains("100.0 % err");
        assertThat(external.findElement(By.cssSelector("path.edge")).getAttribute("class")).contains("failing");
        shot("service-map");

        frontBack.findElement(By.cssSelector("text.edge-label")).click();
        wait.until(d -> d.findElements(By.cssSelector("#edgeTraces tr.trace-row")).size() == CALLS);
        assertThat(text("#edgeTitle")).isEqualTo("front \u2192 back");
        assertThat(texts("#edgeTraces tr.trace-row td.name")).containsOnly("GET /front/call");
        shot("service-map-edge");

        external.findElement(By.cssSelector("text.edge-label")).click();
        wait.until(d -> d.findElements(By.cssSelector("#edgeTraces tr.trace-row")).size() == GATEWAY_CALLS);
        assertThat(texts("#edgeTraces tr.trace-row td.name")).containsOnly("GET /gateway/call");

        // click through to a trace of the external edge and its failed client span
        browser.findElements(By.cssSelector("#edgeTraces tr.trace-row")).get(0).click();
        wait.until(d -> d.findElements(By.cssSelector("#waterfall .span-row")).size() == 2);
        WebElement client = browser.findElements(By.cssSelector("#waterfall .span-row")).stream()
                .filter(r -> r.getText().contains("CLIENT")).findFirst().orElseThrow();
        client.click();
        wait.until(d -> d.findElement(By.id("spanDetail")).isDisplayed());
        assertThat(fieldOf("status")).isEqualTo("ERROR");
        assertThat(fieldOf("error message")).isNotEqualTo("none").isNotBlank();
        assertThat(fieldOf("kind")).isEqualTo("CLIENT");
        assertThat(texts("#spanTags tr.tag-row td:first-child")).contains("error", "http.method");
        shot("trace-external-error");
    }

    @Test
    @Order(4)
    void traceSearchFiltersAndSpanDetails() {
        openFresh();
        tab("traces");
        wait.until(d -> d.findElements(By.cssSelector("#searchResults tr.trace-row")).size()
                == CALLS + FAILS + GATEWAY_CALLS);

        new Select(browser.findElement(By.id("sStatus"))).selectByValue("error");
        search();
        wait.until(d -> rows().size() == FAILS + GATEWAY_CALLS);
        assertThat(texts("#searchResults tr.trace-row td.name")).containsOnly("GET /front/fail", "GET /gateway/call");

        new Select(browser.findElement(By.id("sService"))).selectByValue("front");
        search();
        wait.until(d -> rows().size() == FAILS);
        assertThat(text("#searchResults .count")).isEqualTo(FAILS + " traces");

        new Select(browser.findElement(By.id("sStatus"))).selectByValue("any");
        type("sRoute", "/front/call");
        type("sTags", "http.status_code=200");
        new Select(browser.findElement(By.id("sSort"))).selectByValue("duration");
        search();
        wait.until(d -> rows().size() == CALLS);
        List<Double> durations = texts("#searchResults tr.trace-row td:nth-child(4)").stream()
                .map(UiBrowserIT::millis).toList();
        assertThat(durations).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        // the table shows rounded durations: a trace shown equal to the threshold may lie just below it
        double min = durations.get(CALLS / 2);
        long shownAbove = durations.stream().filter(x -> x > min).count();
        long shownAtOrAbove = durations.stream().filter(x -> x >= min).count();
        type("sMin", String.valueOf(min));
        search();
        wait.until(d -> {
            int n = rows().size();
            return n > 0 && n >= shownAbove && n <= shownAtOrAbove;
        });

        type("sTags", "novalue");
        search();
        wait.until(d -> !d.findElements(By.id("searchError")).isEmpty());
        assertThat(text("#searchError")).contains("tag").contains("key=value");
        shot("search-bad-tag");

        type("sTags", "");
        type("sMin", "");
        search();
        wait.until(d -> rows().size() == CALLS);
        shot("search");

        // the slowest /front/call: front SERVER -> front CLIENT -> back SERVER
        WebElement first = rows().get(0);
        String traceId = first.getAttribute("data-trace");
        first.click();
        wait.until(d -> text("#traceTitle").equals(traceId));
        wait.until(d -> d.findElements(By.cssSelector("#waterfall .span-row")).size() == 3);
        assertThat(text("#spanCount")).isEqualTo("3 spans");
        assertThat(browser.findElement(By.id("traceLink")).getAttribute("href")).endsWith("#trace=" + traceId);
        WebElement backServer = browser.findElements(By.cssSelector("#waterfall .span-row")).get(2);
        assertThat(backServer.getText()).contains("SERVER").contains("GET /back/hello");
        backServer.click();
        wait.until(d -> d.findElement(By.id("spanDetail")).isDisplayed());
        assertThat(fieldOf("service / instance")).startsWith("back / ");
        assertThat(fieldOf("status")).isEqualTo("OK");
        assertThat(fieldOf("error message")).isEqualTo("none");
        assertThat(fieldOf("duration")).matches("[0-9.]+ (ms|s)");
        assertThat(fieldOf("parent span id")).matches("[0-9a-f]{16}");
        assertThat(texts("#spanTags tr.tag-row td:first-child")).contains("http.method", "http.status_code");
        browser.findElement(By.id("copyTraceId")).click();
        wait.until(d -> text("#copyTraceId").equals("copied"));
        shot("trace-span-detail");

        // the trace's own link opens it on a fresh page
        browser.get(home + "#trace=" + traceId);
        browser.navigate().refresh();
        wait.until(d -> d.findElement(By.id("traceSection")).isDisplayed());
        wait.until(d -> d.findElements(By.cssSelector("#waterfall .span-row")).size() == 3);
        assertThat(text("#traceTitle")).isEqualTo(traceId);
    }

    @Test
    @Order(5)
    void jvmChartsPerInstance() {
        openFresh();
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#services li[data-service='back']")))
                .click();
        tab("jvm");
        wait.until(d -> text("#jvmService").equals("back"));
        wait.until(d -> d.findElements(By.cssSelector("#jvm .jvm-instance")).size() == 1);
        awaitCharts("#jvm", 2);
        assertThat(texts("#jvm .c-title")).containsExactly("Heap", "GC time (ms per s)", "Threads", "CPU (process)");
        for (String title : List.of("Heap", "Threads")) {
            assertThat(browser.findElements(By.cssSelector("#jvm .chart[data-title='" + title + "'] canvas")))
                    .as(title).isNotEmpty();
        }
        assertThat(browser.findElement(By.cssSelector("#jvm .chart[data-title='Heap'] .u-legend")).getText())
                .contains("used", "committed", "max");
        shot("jvm");
    }

    @Test
    @Order(6)
    void roughEdgesFavIconErrorAxisAndUrls() throws Exception {
        HttpResponse<byte[]> icon = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(home + "favicon.ico")).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(icon.statusCode()).isEqualTo(200);
        assertThat(icon.headers().firstValue("Content-Type")).hasValue("image/x-icon");
        assertThat(icon.body()).startsWith(0, 0, 1, 0); // an ICO header

        // a service without errors: the error-rate axis reads 0 % to 1 %, not "0000.0 %"
        openFresh();
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#services li[data-service='back']")))
                .click();
        wait.until(d -> text("#redTitle").equals("back"));
        awaitCharts("#redCharts", 3);
        @SuppressWarnings("unchecked")
        List<String> ticks = (List<String>) ((JavascriptExecutor) browser).executeScript(
                "const c = charts.find(u => u.root.closest('.chart').dataset.title === 'Error rate');"
                        + " return c ? c.axes[1]._values.map(String) : null;");
        assertThat(ticks).isNotEmpty().contains("0.0 %", "1.0 %").allSatisfy(t -> assertThat(t).matches("\\d\\.\\d+ %"));
        shot("red-no-errors-axis");

        // each view and its filters in the URL: a route's charts, an edge's traces, a search
        openFresh();
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("#services li[data-service='front']")))
                .click();
        wait.until(d -> rowOf("/front/fail") != null);
        rowOf("/front/fail").click();
        wait.until(d -> text("#redTitle").equals("front \u00b7 /front/fail"));
        wait.until(d -> d.getCurrentUrl().contains("route=%2Ffront%2Ffail"));
        assertThat(browser.getCurrentUrl()).contains("#view=red", "range=1h", "service=front");
        String routeUrl = browser.getCurrentUrl();
        browser.get("about:blank");
        browser.get(routeUrl);
        wait.until(d -> text("#redTitle").equals("front \u00b7 /front/fail"));
        awaitCharts("#redCharts", 3);

        browser.get("about:blank");
        browser.get(home + "#view=map&range=1h&source=front&target=back");
        wait.until(d -> d.findElements(By.cssSelector("#edgeTraces tr.trace-row")).size() == CALLS);
        assertThat(text("#edgeTitle")).isEqualTo("front \u2192 back");

        browser.get("about:blank");
        browser.get(home + "#view=traces&range=1h&service=front&status=error");
        wait.until(d -> d.findElements(By.cssSelector("#searchResults tr.trace-row")).size() == FAILS);
        assertThat(new Select(browser.findElement(By.id("sStatus"))).getFirstSelectedOption().getText())
                .isEqualTo("error");
        type("sMin", "0");
        search();
        wait.until(d -> d.getCurrentUrl().contains("minDurationMs=0"));
        assertThat(browser.getCurrentUrl()).contains("view=traces", "service=front", "status=error");
        shot("url-traces");
    }

    // ------------------------------------------------------------------ helpers

    /** The page afresh, auto-refresh off so that nothing redraws under a click. */
    private static void openFresh() {
        browser.get(home);
        WebElement auto = wait.until(ExpectedConditions.elementToBeClickable(By.id("auto")));
        if (auto.isSelected()) {
            auto.click();
        }
        wait.until(d -> d.findElements(By.cssSelector("#services li[data-service]")).size() == 3);
        settled();
    }

    private static void tab(String view) {
        browser.findElement(By.cssSelector("#tabs .tab[data-view='" + view + "']")).click();
        wait.until(d -> d.findElement(By.id("view-" + view)).isDisplayed());
        settled();
    }

    /** Waits until the page's refresh (services and the current view) is done. */
    private static void settled() {
        wait.until(d -> "false".equals(d.findElement(By.tagName("body")).getAttribute("data-busy")));
    }

    /** Waits for at least {@code n} charts in {@code container} drawn by uPlot (canvas) with points. */
    private static void awaitCharts(String container, int n) {
        settled();
        wait.until(d -> d.findElements(By.cssSelector(container + " .chart[data-points] canvas")).size() >= n);
    }

    private static int pointsOfFirstChart() {
        List<WebElement> charts = browser.findElements(By.cssSelector("#redCharts .chart[data-points]"));
        return charts.isEmpty() ? -1 : Integer.parseInt(charts.get(0).getAttribute("data-points"));
    }

    private static WebElement edge(String source, String target) {
        return wait.until(d -> d.findElements(By.cssSelector("#map g.edge-group")).stream()
                .filter(g -> source.equals(g.getAttribute("data-source")) && target.equals(g.getAttribute("data-target")))
                .findFirst().orElse(null));
    }

    private static WebElement rowOf(String route) {
        return browser.findElements(By.cssSelector("#routes tr.route-row")).stream()
                .filter(r -> route.equals(r.getAttribute("data-route"))).findFirst().orElse(null);
    }

    private static List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#searchResults tr.trace-row"));
    }

    private static void search() {
        browser.findElement(By.id("searchBtn")).click();
    }

    private static void type(String id, String value) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        if (!value.isEmpty()) {
            input.sendKeys(value);
        }
    }

    private static void setLocalTime(String id, long epochMs) {
        ((JavascriptExecutor) browser).executeScript("arguments[0].value = localInput(arguments[1]);",
                browser.findElement(By.id(id)), epochMs);
    }

    private static String fieldOf(String name) {
        return browser.findElements(By.cssSelector("#spanFields tr")).stream()
                .filter(r -> r.findElement(By.cssSelector("td:first-child")).getText().equals(name))
                .map(r -> r.findElement(By.cssSelector("td:last-child")).getText()).findFirst()
                .orElseThrow(() -> new AssertionError("no field " + name + " in the span details"));
    }

    private static String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }

    private static List<String> texts(String css) {
        return browser.findElements(By.cssSelector(css)).stream().map(WebElement::getText).toList();
    }

    private static List<String> attributes(String css, String attribute) {
        return browser.findElements(By.cssSelector(css)).stream().map(e -> e.getAttribute(attribute)).toList();
    }

    /** "12.3 ms" or "1.20 s" as milliseconds. */
    private static double millis(String text) {
        String[] parts = text.trim().split(" ");
        double v = Double.parseDouble(parts[0]);
        return parts[1].equals("s") ? v * 1000 : v;
    }

    private static void shot(String name) {
        File png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE);
        try {
            Files.copy(png.toPath(), SHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
