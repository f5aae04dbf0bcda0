package io.argus.plugin.jaxrs;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractServerPluginIT;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Jersey on the JDK HttpServer under {@code /shop/api} in a forked JVM with the agent (the
 * jdk-http-server plugin records the requests, this one names them): the oldest Jersey 2 (javax) and
 * the newest Jersey 3 (jakarta), on JDK 17 and Temurin 25. Every assertion reads the collector's API.
 */
class JerseyRoutesIT extends AbstractServerPluginIT {

    enum Jersey {
        V2("argus.test.jersey2", "argus.test.app.javax"),
        V3("argus.test.jersey3", "argus.test.app.jakarta");

        final String versionProperty;
        final String appProperty;

        Jersey(String versionProperty, String appProperty) {
            this.versionProperty = versionProperty;
            this.appProperty = appProperty;
        }

        String version() {
            return System.getProperty(versionProperty);
        }

        /** Its folder of jars, those of {@code more} folders (a container), and the application compiled against it. */
        String classpath(String... more) {
            List<String> entries = new ArrayList<>(jars("jersey-" + version()));
            for (String folder : more) {
                entries.addAll(jars(folder));
            }
            entries.add(System.getProperty(appProperty));
            return String.join(File.pathSeparator, entries);
        }

        private static List<String> jars(String folder) {
            try (Stream<Path> files = Files.list(Paths.get(System.getProperty("argus.test.jersey.jars"), folder))) {
                return files.map(Path::toString).sorted().collect(Collectors.toList());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static final String ORDER = "/shop/api/orders/{id}";
    static final String LINE = "/shop/api/orders/{id}/lines/{line}";

    private Jersey jersey = Jersey.V3;
    private String mainClass = "io.argus.plugin.jaxrs.app.JerseyApp";
    private String[] containerJars = {};

    static Stream<Arguments> jerseyAndJdk() {
        return Stream.of(Jersey.values()).flatMap(j -> AgentApp.javaHomes().stream().map(home -> Arguments.of(j, home)));
    }

    @Override
    protected String mainClass() {
        return mainClass;
    }

    @Override
    protected String classpath() {
        return jersey.classpath(containerJars);
    }

    @Override
    protected String servicePrefix() {
        return "jaxrs-jersey" + jersey.version();
    }

    @ParameterizedTest(name = "Jersey {0} on {1}")
    @MethodSource("jerseyAndJdk")
    void namesSpansAndMetricsByTheTemplate(Jersey version, String javaHome) throws Exception {
        jersey = version;
        String service = service("all", javaHome);
        try (AgentApp app = start(service, javaHome, 100).start()) {
            verifyRoutes(service, app);
        }
    }

    @ParameterizedTest(name = "Jersey 2 servlet on Jetty 9.4 on {0}")
    @MethodSource("javaHomes")
    void prefixesTheServletContextAndMapping(String javaHome) throws Exception {
        jersey = Jersey.V2;
        mainClass = "io.argus.plugin.jaxrs.app.JettyJerseyApp";
        containerJars = new String[] {System.getProperty("argus.test.jetty9")};
        String service = service("jetty", javaHome);
        try (AgentApp app = start(service, javaHome, 100).start()) {
            verifyRoutes(service, app);
        }
    }

    static List<String> javaHomes() {
        return AgentApp.javaHomes();
    }

    /**
     * Orders, a failing order, the order list, order lines through a sub-resource locator and an unmatched
     * path, under {@code /shop/api} (a JDK HttpServer context, or a servlet context path and mapping).
     */
    void verifyRoutes(String service, AgentApp app) throws Exception {
        int port = readyPort(app);
        for (String id : List.of("apple", "pear", "plum")) {
            assertThat(get(port, "/shop/api/orders/" + id)).isEqualTo(200);
        }
        assertThat(get(port, "/shop/api/orders/boom")).isEqualTo(500);
        assertThat(get(port, "/shop/api/orders")).isEqualTo(200);
        // only now: the requests above went out as soon as the application answered
        assertThat(pluginsLoaded(app)).contains("jaxrs");
        assertThat(get(port, "/shop/api/orders/apple/lines/first")).isEqualTo(200);
        assertThat(get(port, "/shop/api/orders/pear/lines/second")).isEqualTo(200);
        // no resource matched: no template, the raw path
        assertThat(get(port, "/shop/api/nothing")).isEqualTo(404);

        awaitServerMetrics(service, Map.of("GET " + ORDER + " 200", 3L, "GET " + ORDER + " 500", 1L,
                "GET /shop/api/orders 200", 1L, "GET " + LINE + " 200", 2L, "GET /shop/api/nothing 404", 1L));

        List<JsonNode> traces = awaitTraces(service, 8);
        assertThat(rootNames(traces)).containsExactlyInAnyOrder("GET " + ORDER, "GET " + ORDER, "GET " + ORDER,
                "GET " + ORDER, "GET /shop/api/orders", "GET " + LINE, "GET " + LINE, "GET /shop/api/nothing");
        // the span is named by the template and keeps the path it was called with
        Set<String> orderPaths = traces.stream().filter(t -> t.path("rootName").asText().equals("GET " + ORDER))
                .map(t -> singleSpan(t.path("traceId").asText()).path("tags").path("http.path").asText())
                .collect(Collectors.toSet());
        assertThat(orderPaths).containsExactlyInAnyOrder("/shop/api/orders/apple", "/shop/api/orders/pear",
                "/shop/api/orders/plum", "/shop/api/orders/boom");
        Set<String> linePaths = traces.stream().filter(t -> t.path("rootName").asText().equals("GET " + LINE))
                .map(t -> singleSpan(t.path("traceId").asText())).peek(span -> {
                    assertThat(span.path("name").asText()).isEqualTo("GET " + LINE);
                    assertThat(span.path("tags").path("http.status_code").asText()).isEqualTo("200");
                })
                .map(span -> span.path("tags").path("http.path").asText()).collect(Collectors.toSet());
        assertThat(linePaths).containsExactlyInAnyOrder("/shop/api/orders/apple/lines/first", "/shop/api/orders/pear/lines/second");
        assertThat(agentGauge(service, "agent.advice.errors")).isZero();
    }

    @Test
    void namesUntracedRequestsToo() throws Exception {
        String service = service("untraced", JDK);
        try (AgentApp app = start(service, JDK, 0).start()) {
            int port = readyPort(app);
            for (String id : List.of("apple", "pear", "plum")) {
                assertThat(get(port, "/shop/api/orders/" + id)).isEqualTo(200);
            }
            awaitServerMetrics(service, Map.of("GET " + ORDER + " 200", 3L));
            assertThat(api.traces(service, 100)).isEmpty();
        }
    }

    @Test
    void keepsThePathWhenDisabled() throws Exception {
        String service = service("off", JDK);
        try (AgentApp app = start(service, JDK, 100).agent("argus.plugin.jaxrs.enabled", false).start()) {
            assertThat(pluginsLoaded(app)).contains("jdk-http-server").doesNotContain("jaxrs");
            int port = readyPort(app);
            assertThat(get(port, "/shop/api/orders/apple")).isEqualTo(200);
            assertThat(get(port, "/shop/api/orders/apple/lines/first")).isEqualTo(200);
            awaitServerMetrics(service, Map.of("GET /shop/api/orders/apple 200", 1L, "GET /shop/api/orders/apple/lines/first 200", 1L));
        }
    }
}
