package io.argus.plugin.servlet;

import com.fasterxml.jackson.databind.JsonNode;
import io.argus.testing.AbstractContainerPluginIT;
import io.argus.testing.AgentApp;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The servlet plugin in one servlet container: the test application ({@code src/test/app}: the same
 * servlets on Tomcat, Jetty or Undertow, serving the endpoints of {@link AbstractContainerPluginIT} and
 * {@code /forward}, {@code /nested}) runs in a forked JVM with the assembled agent, which holds
 * the servlet plugin and the jetty, tomcat and undertow plugins (target/agent/plugins). Either the
 * container's own plugin is on, and the servlet plugin must record nothing itself (exactly one server
 * span and one count per request, from the container plugin), or it is switched off and the servlet
 * plugin records every request a servlet serves. Every assertion reads the collector's JSON API.
 */
abstract class AbstractServletIT extends AbstractContainerPluginIT {

    /** A short name for service names. */
    abstract String name();

    /** The container's folder of jars under target/containers. */
    abstract String container();

    abstract boolean jakarta();

    /** tomcat, jetty or undertow: {@code TomcatMain}, {@code JettyMain} or {@code UndertowMain}. */
    abstract String containerPlugin();

    /** Whether the container's own plugin is switched on (it is installed either way). */
    abstract boolean containerPluginOn();

    @Override
    protected String mainClass() {
        String c = containerPlugin();
        return "io.argus.plugin.servlet.app." + Character.toUpperCase(c.charAt(0)) + c.substring(1) + "Main";
    }

    @Override
    protected String classpath() {
        String app = System.getProperty(jakarta() ? "argus.test.app.jakarta" : "argus.test.app.javax");
        return app + File.pathSeparator + Paths.get(System.getProperty("argus.test.containers"), container(), "*");
    }

    @Override
    protected String servicePrefix() {
        return "servlet-" + name();
    }

    /** Whether the client span of an AsyncContext.dispatch() becomes a child (the jetty plugin leaves it out). */
    boolean asyncDispatchTraced() {
        return true;
    }

    /**
     * Whether a servlet answers a request no application servlet is mapped to: Jetty's and Undertow's
     * default servlets do; a bare embedded Tomcat context answers 404 from its valve, unseen by servlets.
     */
    boolean defaultServlet() {
        return !containerPlugin().equals("tomcat");
    }

    /** The path the metrics record for /forward (the undertow plugin records the path Undertow reports at the end). */
    String forwardMetricPath() {
        return "/forward";
    }

    /** Whether the span of a request whose servlet threw carries the exception (the undertow plugin leaves it out). */
    boolean exceptionTagged() {
        return true;
    }

    // ---- spans, metrics, propagation, async, dispatch types

    @Test
    void recordsEveryRequestOnceAt100Percent() throws Exception {
        recordsEveryRequestOnce(JDK);
    }

    void recordsEveryRequestOnce(String javaHome) throws Exception {
        recordsEveryRequestOnce(service("all", javaHome), start(service("all", javaHome), javaHome, 100));
    }

    /** With every request's state in the agent's map, as for classes loaded before the agent was up. */
    void recordsEveryRequestOnceWithTheStateInTheMap() throws Exception {
        String service = service("mapped", JDK);
        recordsEveryRequestOnce(service, start(service, JDK, 100).agent("argus.state.ownerFields", false));
    }

    private void recordsEveryRequestOnce(String service, AgentApp.Builder application) throws Exception {
        try (AgentApp app = application.start()) {
            int port = readyPort(app);
            assertAgentInternalsHidden(app);

            sendEveryEndpoint(port);
            // only now: the requests above went out as soon as the application answered
            Set<String> plugins = new HashSet<>(Arrays.asList(pluginsLoaded(app).split(",\\s*")));
            assertThat(plugins).contains("servlet").containsAll(containerPluginOn() ? List.of(containerPlugin()) : List.of());
            assertThat(plugins.contains(containerPlugin())).isEqualTo(containerPluginOn());
            assertThat(get(port, "/forward")).isEqualTo(200);
            assertThat(get(port, "/nested")).isEqualTo(200);

            Map<String, Long> expected = new HashMap<>(Map.of(
                    "GET /hello/basic 200", (long) N, "GET /fail 500", 1L, "GET /boom 500", 1L,
                    "GET /hello/unsampled 200", 1L, "GET /hello/malformed 200", 1L, "GET /hello/w3c 200", 1L,
                    "GET /async 200", 1L, "GET /asyncdispatch 200", 1L, "GET /child 200", 1L, "GET " + forwardMetricPath() + " 200", 1L));
            expected.put("GET /nested 200", 1L);
            List<String> roots = new ArrayList<>(List.of(
                    "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic", "GET /hello/basic",
                    "GET /fail", "GET /boom", "GET /hello/malformed", "GET /hello/w3c", "GET /async",
                    "GET /asyncdispatch", "GET /child", "GET /forward", "GET /nested"));
            if (containerPluginOn() || defaultServlet()) {
                // the container plugin sees requests that no servlet serves; the servlet probe only when a default servlet does
                expected.put("GET /missing 404", 1L);
                roots.add("GET /missing");
            }
            Map<String, JsonNode> metrics = awaitServerMetrics(service, expected);
            assertBasicMetrics(metrics);
            assertThat(metrics.get("GET /asyncdispatch 200").path("maxMs").asDouble()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS);

            List<JsonNode> traces = awaitTraces(service, roots.size());
            assertThat(rootNames(traces)).containsExactlyInAnyOrderElementsOf(roots);
            // those with a client span under the server span are checked below
            assertServerSpans(traces, name -> name.equals("GET /child") || (name.equals("GET /asyncdispatch") && asyncDispatchTraced()));
            if (exceptionTagged()) {
                assertThat(singleSpan(traceIdOf(traces, "GET /boom")).path("tags").path("error").asText())
                        .contains("IllegalStateException");
            }
            assertThat(singleSpan(traceIdOf(traces, "GET /async")).path("durationNanos").asLong())
                    .isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);
            assertServerWithChild(traceIdOf(traces, "GET /child"), "/child");
            if (asyncDispatchTraced()) {
                JsonNode dispatched = assertServerWithChild(traceIdOf(traces, "GET /asyncdispatch"), "/asyncdispatch");
                assertThat(dispatched.path("durationNanos").asLong()).isGreaterThanOrEqualTo(ASYNC_DELAY_MS * 1_000_000);
            }

            assertInboundContextHandled(traces);
            assertCountedOnce(service, metrics, roots.size());
        }
    }

    /**
     * With {@code argus.http.servletMappingRoutes} on, a request is named by its servlet mapping
     * ({@code /hello/*}, exact {@code /hello}) on a Servlet 4.0+ container; on an older one the mapping
     * is unknown and the id normaliser names it as without the key. The raw path stays in {@code http.path}.
     */
    void verifyNamesByServletMapping(boolean servlet4) throws Exception {
        String service = service("mapping", JDK);
        try (AgentApp app = start(service, JDK, 100).agent("argus.http.servletMappingRoutes", true).start()) {
            int port = readyPort(app);
            assertThat(get(port, "/hello/abc/def")).isEqualTo(200);
            assertThat(get(port, "/hello/42")).isEqualTo(200);
            assertThat(get(port, "/hello")).isEqualTo(200);
            Map<String, Long> expected = servlet4
                    ? Map.of("GET /hello/* 200", 2L, "GET /hello 200", 1L)
                    : Map.of("GET /hello/abc/def 200", 1L, "GET /hello/{id} 200", 1L, "GET /hello 200", 1L);
            awaitServerMetrics(service, expected);
            List<JsonNode> traces = awaitTraces(service, 3);
            String mapped = servlet4 ? "GET /hello/*" : "GET /hello/abc/def";
            assertThat(rootNames(traces)).containsExactlyInAnyOrder(mapped, servlet4 ? "GET /hello/*" : "GET /hello/{id}", "GET /hello");
            List<String> paths = new ArrayList<>();
            for (JsonNode trace : traces) {
                paths.add(singleSpan(trace.path("traceId").asText()).path("tags").path("http.path").asText());
            }
            assertThat(paths).containsExactlyInAnyOrder("/hello/abc/def", "/hello/42", "/hello");
            assertThat(agentGauge(service, "agent.advice.errors")).isZero();
        }
    }

    // ---- standalone only (the subclasses say): verifyJoinsInboundSampledContextAtZeroPercent(), and

    /** The servlet plugin and the container's plugin off: nothing recorded, no class changed. */
    void recordsNothingWhenDisabled() throws Exception {
        verifyRecordsNothingWhenDisabled("servlet",
                plugins -> assertThat(plugins).doesNotContain("servlet").doesNotContain(containerPlugin()));
    }

    // ---- the application

    @Override
    protected AgentApp.Builder start(String service, String javaHome, int samplingRate) {
        AgentApp.Builder builder = super.start(service, javaHome, samplingRate);
        if (containerPlugin() != null && !containerPluginOn()) {
            builder.agent("argus.plugin." + containerPlugin() + ".enabled", false);
        }
        return builder;
    }
}
