package io.argus.springboot;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractCollectorIT;
import io.argus.testing.AgentApp;
import io.argus.testing.CollectorClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.condition.EnabledIf;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the same Spring Boot application with the agent and every plugin: the front
 * service's {@code GET /api/orders/{id}} reads H2 through JdbcTemplate and calls the back service with
 * RestClient, RestTemplate and from an {@code @Async} method. The tests read the whole trace, across both
 * processes, and the route-templated metrics from the collector. The front service runs on Tomcat on
 * JDK 17, and with virtual threads on Temurin 25; the back service, shared by the tests of a class, runs
 * under a context path or servlet path, so its routes carry that prefix.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractSpringBootIT extends AbstractCollectorIT {

    enum Container {
        TOMCAT("Tomcat", "tomcat-embed-core", "tomcat-embed-websocket"),
        JETTY("Jetty", "jetty-"),
        UNDERTOW("Undertow", "undertow-", "xnio-");

        final String banner;
        /** The jar name prefixes that make Boot pick this container (it tries Tomcat, Jetty, Undertow in turn). */
        final List<String> jars;

        Container(String banner, String... jars) {
            this.banner = banner;
            this.jars = List.of(jars);
        }
    }

    static final int ORDERS = 3;
    static final List<String> ITEMS = List.of("apple", "pear", "plum");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static AgentApp back;
    private static String backUrl;

    /** "boot3" or "boot4": the system properties of the build and the start of the service names. */
    private final String boot;
    private final Container backContainer;
    /** The back service's context path or servlet path, put before its routes. */
    private final String backPrefix;
    private final String backPrefixArg;
    /** The front service's container with virtual threads on Temurin 25 (on JDK 17 it is Tomcat). */
    private final Container virtualContainer;

    AbstractSpringBootIT(String boot, Container backContainer, String backPrefix, String backPrefixArg, Container virtualContainer) {
        this.boot = boot;
        this.backContainer = backContainer;
        this.backPrefix = backPrefix;
        this.backPrefixArg = backPrefixArg;
        this.virtualContainer = virtualContainer;
    }

    String backService() {
        return boot + "-back";
    }

    @BeforeAll
    void startBack() {
        back = start(backService(), JDK, backContainer, List.of(backPrefixArg + "=" + backPrefix)).start();
        backUrl = "http://127.0.0.1:" + port(back, backContainer) + backPrefix;
    }

    @AfterAll
    static void stopBack() {
        if (back != null) {
            back.close();
        }
    }

    @Test
    void tomcatOnJdk17() throws Exception {
        String front = boot + "-front-tomcat-jdk17";
        try (AgentApp app = startFront(front, JDK, Container.TOMCAT).start()) {
            verifyOrders(front, port(app, Container.TOMCAT), "task-");
            verifyLogLines(front, app);
            assertPluginsLoaded(app);
        }
    }

    @Test
    @EnabledIf("hasJdk25")
    void virtualThreadsOnJdk25() throws Exception {
        String front = boot + "-front-" + virtualContainer.name().toLowerCase(java.util.Locale.ROOT) + "-virtual-jdk25";
        try (AgentApp app = startFront(front, jdk25(), virtualContainer, "--spring.threads.virtual.enabled=true").start()) {
            verifyOrders(front, port(app, virtualContainer), "task-");
            verifyLogLines(front, app);
            assertPluginsLoaded(app);
        }
    }

    // ---- the applications

    static boolean hasJdk25() {
        return AgentApp.javaHomes().size() > 1;
    }

    static String jdk25() {
        return AgentApp.javaHomes().get(1);
    }

    /** A service of the application on {@code container}, sampling everything. */
    AgentApp.Builder start(String service, String javaHome, Container container, List<String> args) {
        List<String> all = new ArrayList<>(List.of("--server.port=0", "--spring.main.banner-mode=off",
                // the logback plugin puts the current span's ids where %X{..} reads them
                "--logging.pattern.console=%X{trace_id:--} %X{span_id:--} %logger{0} %m%n",
                "--spring.datasource.url=jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1"));
        all.addAll(args);
        return AgentApp.builder("io.argus.springboot.app.OrdersApp")
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(100)
                .classpath(classpath(container))
                .args(all.toArray(new String[0]))
                .logToTestLogs(service);
    }

    /** The front service, calling the back one. */
    AgentApp.Builder startFront(String service, String javaHome, Container container, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--app.downstream=" + backUrl);
        return start(service, javaHome, container, all);
    }

    /**
     * The jar name prefixes of the catalog application's data stores (SpringBootDataIT), left out of the
     * orders application's class path: with them Boot would connect to a Redis and a MongoDB there are none of.
     */
    static final List<String> DATA_STORE_JARS = List.of("spring-data-redis", "lettuce-core", "spring-data-mongodb",
            "mongodb-driver", "bson");

    /** Boot's class path with only {@code container}'s jars of the three, and the application. */
    String classpath(Container container) {
        return classpath(boot, container, DATA_STORE_JARS);
    }

    /** Boot's class path with only {@code container}'s jars of the three, none of {@code leftOut}, and the application. */
    static String classpath(String boot, Container container, List<String> leftOut) {
        Path libs = Paths.get(System.getProperty("argus.test." + boot + ".libs"));
        List<String> others = Stream.concat(Stream.of(Container.values()).filter(c -> c != container)
                .flatMap(c -> c.jars.stream()).filter(prefix -> container.jars.stream().noneMatch(prefix::equals)),
                leftOut.stream()).collect(Collectors.toList());
        try (Stream<Path> jars = Files.list(libs)) {
            List<String> entries = jars.map(Path::toString).sorted()
                    .filter(jar -> others.stream().noneMatch(prefix -> Paths.get(jar).getFileName().toString().startsWith(prefix)))
                    .collect(Collectors.toList());
            entries.add(System.getProperty("argus.test." + boot + ".app"));
            return String.join(File.pathSeparator, entries);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The port Boot's container reports once the application has started; checks it is the expected
     * container. The agent's own lines are not waited for: requests go out as soon as the application says
     * it serves, as a user's would, and must all be traced.
     */
    static int port(AgentApp app, Container container) {
        Matcher started = app.awaitLine("(Tomcat|Jetty|Undertow) started on port[s]?[^0-9]*(\\d+)", WAIT);
        assertThat(started.group(1)).as("the container Boot started").isEqualTo(container.banner);
        app.awaitLine("Started OrdersApp in", WAIT);
        return Integer.parseInt(started.group(2));
    }

    /** The agent's start line, once the scenario ran: every plugin the application's libraries need was on. */
    static void assertPluginsLoaded(AgentApp app) {
        assertThat(app.awaitLine("\\[argus\\] .*plugins=\\[([^\\]]*)\\]", WAIT).group(1))
                .contains("spring", "tomcat", "jetty", "undertow", "jdbc", "executors", "jdk-http-client", "http-url-connection");
    }

    static String get(int port, String path) throws IOException, InterruptedException {
        return get(port, path, 200);
    }

    static String get(int port, String path, int status) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(status);
        return response.body();
    }

    // ---- the scenario and its checks

    /**
     * Sends {@value #ORDERS} orders and starts the lazy report refresher, then checks the traces and
     * metrics of both services. {@code asyncThread} is the start of the {@code @Async} executor's thread names.
     */
    void verifyOrders(String front, int port, String asyncThread) throws Exception {
        for (int id = 1; id <= ORDERS; id++) {
            String body = get(port, "/api/orders/" + id);
            String item = ITEMS.get(id - 1);
            assertThat(body).startsWith(item + " stock-" + id)
                    .contains(" price-" + item + " audited-" + id + "@" + asyncThread);
        }
        assertThat(get(port, "/api/reports/start")).isEqualTo("started");

        List<JsonNode> orders = CollectorClient.await(ORDERS + " order traces of " + front, WAIT,
                () -> traces(front, "GET /api/orders/{id}"), t -> t.size() >= ORDERS);
        assertThat(orders).hasSize(ORDERS);
        for (JsonNode summary : orders) {
            assertOrderTrace(front, summary.path("traceId").asText());
        }

        // an order that is not there fails (500) through Boot's error dispatch to /error: still the order route
        get(port, "/api/orders/99", 500);

        // one row per route template and status, whatever the ids, in both services
        Map<Integer, Long> counts = CollectorClient.await("GET /api/orders/{id}: " + ORDERS + " x 200, 1 x 500", WAIT,
                () -> statusCounts(front, "/api/orders/{id}"), c -> c.getOrDefault(500, 0L) >= 1 && c.getOrDefault(200, 0L) >= ORDERS);
        assertThat(counts).isEqualTo(Map.of(200, (long) ORDERS, 500, 1L));
        for (String route : List.of("stock/{id}", "prices/{item}", "audit/{id}")) {
            String target = backPrefix + "/api/" + route;
            CollectorClient.await("GET " + target + " of " + backService(), WAIT,
                    () -> api.serverMetric(backService(), "GET", target), r -> r.path("count").asLong() >= ORDERS);
        }
        assertThat(serverTargets(front)).doesNotContain("/error");
        assertThat(serverTargets(backService())).doesNotContain(backPrefix + "/api/prices/apple", "/error");

        verifyScheduled(front);
        assertThat(agentGauge(front, "agent.advice.errors")).isZero();
    }

    /**
     * The controller's log line of every order carries the ids of the order's trace and of the front
     * server span current while it logged, as Boot's Logback prints them with {@code %X{trace_id}}.
     */
    void verifyLogLines(String front, AgentApp app) {
        Pattern line = Pattern.compile("^([0-9a-f]{32}|-) ([0-9a-f]{16}|-) OrdersController order (\\d+)$");
        Map<String, String> logged = new HashMap<>();
        for (String text : app.lines()) {
            Matcher m = line.matcher(text);
            if (m.find() && Integer.parseInt(m.group(3)) <= ORDERS) {
                logged.put(m.group(1), m.group(2));
            }
        }
        assertThat(logged).as("trace ids of the order log lines").hasSize(ORDERS).doesNotContainKey("-");
        for (Map.Entry<String, String> ids : logged.entrySet()) {
            JsonNode root = list(awaitTrace(ids.getKey(), 9).path("spans")).stream()
                    .filter(s -> s.path("parentSpanId").isNull() || s.path("parentSpanId").asText().isEmpty())
                    .findFirst().orElseThrow();
            assertThat(root.path("service").asText()).isEqualTo(front);
            assertThat(root.path("name").asText()).isEqualTo("GET /api/orders/{id}");
            assertThat(root.path("spanId").asText()).as("span_id of the log line of trace %s", ids.getKey())
                    .isEqualTo(ids.getValue());
        }
    }

    /**
     * One trace: the front server span is the only root; under it the JDBC span of the order and the
     * three HTTP client spans (RestClient, RestTemplate, the {@code @Async} RestClient call), each with the
     * back service's server span under it, route-named; under the stock request, the back service's JDBC span.
     */
    void assertOrderTrace(String front, String traceId) {
        JsonNode trace = awaitTrace(traceId, 9);
        List<JsonNode> spans = list(trace.path("spans"));
        Map<String, JsonNode> byId = new HashMap<>();
        spans.forEach(span -> byId.put(span.path("spanId").asText(), span));

        List<JsonNode> roots = spans.stream().filter(AbstractCollectorIT::isRoot).collect(Collectors.toList());
        assertThat(roots).as("roots of %s", trace).hasSize(1);
        JsonNode root = roots.get(0);
        assertThat(root.path("kind").asText()).isEqualTo("SERVER");
        assertThat(root.path("name").asText()).isEqualTo("GET /api/orders/{id}");
        assertThat(root.path("service").asText()).isEqualTo(front);
        for (JsonNode span : spans) {
            if (span != root) {
                assertThat(byId).as("parent of %s in %s", span, trace).containsKey(span.path("parentSpanId").asText());
            }
        }

        List<JsonNode> frontDb = children(spans, root).stream().filter(AbstractSpringBootIT::isDb).collect(Collectors.toList());
        assertThat(frontDb).as("JDBC spans under %s", root).isNotEmpty();
        assertThat(frontDb).anySatisfy(db -> assertThat(db.path("tags").path("db.statement").asText())
                .contains("select item from orders"));

        List<JsonNode> clients = spans.stream().filter(s -> s.path("kind").asText().equals("CLIENT") && !isDb(s))
                .collect(Collectors.toList());
        assertThat(clients).as("HTTP client spans in %s", trace).hasSize(3);
        List<String> downstream = new ArrayList<>();
        for (JsonNode client : clients) {
            assertThat(client.path("service").asText()).isEqualTo(front);
            assertThat(client.path("parentSpanId").asText()).as("parent of %s", client).isEqualTo(root.path("spanId").asText());
            List<JsonNode> served = children(spans, client);
            assertThat(served).as("server spans under %s", client).hasSize(1);
            JsonNode server = served.get(0);
            assertThat(server.path("kind").asText()).isEqualTo("SERVER");
            assertThat(server.path("service").asText()).isEqualTo(backService());
            downstream.add(server.path("name").asText());
            if (server.path("name").asText().contains("/api/stock/")) {
                assertThat(children(spans, server)).as("JDBC under %s", server).isNotEmpty().allSatisfy(db -> assertThat(isDb(db)).isTrue());
            }
        }
        String prefix = backPrefix;
        assertThat(downstream).containsExactlyInAnyOrder("GET " + prefix + "/api/stock/{id}",
                "GET " + prefix + "/api/prices/{item}", "GET " + prefix + "/api/audit/{id}");
    }

    /**
     * {@code @Scheduled} runs are roots of their own, each with its JDBC span: the heartbeat scheduled at
     * start-up, and the report refresher scheduled from inside {@code /api/reports/start}, whose trace
     * holds that request's server span alone, however often the refresher has run.
     */
    void verifyScheduled(String front) {
        for (String name : List.of("Scheduled Heartbeat.beat", "Scheduled ReportRefresher.refresh")) {
            List<JsonNode> runs = CollectorClient.await("2 traces of " + name, WAIT, () -> traces(front, name), t -> t.size() >= 2);
            for (JsonNode summary : runs) {
                JsonNode trace = awaitTrace(summary.path("traceId").asText(), 2);
                List<JsonNode> spans = list(trace.path("spans"));
                JsonNode root = spans.stream().filter(AbstractCollectorIT::isRoot).findFirst().orElseThrow();
                assertThat(root.path("name").asText()).isEqualTo(name);
                assertThat(root.path("kind").asText()).isEqualTo("INTERNAL");
                assertThat(spans).as("spans of %s", trace).hasSize(2);
                assertThat(children(spans, root)).singleElement().satisfies(db -> assertThat(isDb(db)).isTrue());
            }
        }
        // and each run counts in the job metrics of (spring, Class.method)
        for (String job : List.of("Heartbeat.beat", "ReportRefresher.refresh")) {
            JsonNode row = CollectorClient.await("job metrics of " + job, WAIT, () -> list(api.get(
                    "/api/metrics/http?service=" + front + "&kind=job")).stream()
                    .filter(r -> job.equals(r.path("target").asText())).findFirst().orElse(null),
                    r -> r.path("count").asLong() >= 2);
            assertThat(row.path("method").asText()).isEqualTo("spring");
            assertThat(row.path("errors").asLong()).isZero();
        }
        awaitFlushAfter(front, System.currentTimeMillis());
        List<JsonNode> start = traces(front, "GET /api/reports/start");
        assertThat(start).hasSize(1);
        JsonNode trace = api.trace(start.get(0).path("traceId").asText());
        assertThat(trace.path("spans")).as("the request that scheduled the refresher: %s", trace).hasSize(1);
    }

    static boolean isDb(JsonNode span) {
        return span.path("tags").has("db.system") || span.path("tags").has("db.statement");
    }

    static List<JsonNode> children(List<JsonNode> spans, JsonNode parent) {
        String id = parent.path("spanId").asText();
        return spans.stream().filter(s -> id.equals(s.path("parentSpanId").asText())).collect(Collectors.toList());
    }

    static List<JsonNode> traces(String service, String rootName) {
        return list(api.get("/api/traces?service=" + service + "&limit=500")).stream()
                .filter(t -> t.path("rootName").asText().equals(rootName)).collect(Collectors.toList());
    }

    /** The server metric counts of one route, by status. */
    static Map<Integer, Long> statusCounts(String service, String route) {
        return list(api.httpMetrics(service)).stream()
                .filter(r -> r.path("kind").asText().equals("server") && r.path("target").asText().equals(route))
                .collect(Collectors.toMap(r -> r.path("status").asInt(), r -> r.path("count").asLong(), Long::sum));
    }

    static List<String> serverTargets(String service) {
        return list(api.httpMetrics(service)).stream().filter(r -> r.path("kind").asText().equals("server"))
                .map(r -> r.path("target").asText()).collect(Collectors.toList());
    }
}
