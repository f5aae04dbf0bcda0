package io.argus.testing;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An HTTP client plugin IT: test applications built on agent-testing-app's {@code Downstream} make their
 * calls under hand-made parent spans (ROOT lines) and print what the downstream server received; each
 * run is started once, kept in {@link #RUNS}, and read by the tests that need it.
 */
public abstract class AbstractClientPluginIT extends AbstractCollectorIT {

    /** The application runs of the test class, by a key of its choosing; stopped after all its tests. */
    protected static final Map<String, ClientAppRun> RUNS = new ConcurrentHashMap<>();

    @AfterAll
    static void stopRuns() {
        RUNS.values().forEach(ClientAppRun::close);
        RUNS.clear();
    }

    /**
     * The application, not started yet (see {@link ClientAppRun#start}): reporting to the collector as
     * {@code service}, with agent-testing-app on its class path ({@code classpath}, or this JVM's
     * {@link AgentApp#applicationClasspath()} when null).
     */
    protected static AgentApp.Builder application(String mainClass, String javaHome, String classpath, String service,
                                                  double samplingRate, Map<String, String> agentProperties) {
        AgentApp.Builder application = AgentApp.builder(mainClass)
                .javaHome(javaHome)
                .service(service)
                .collector(collector.ingestPort())
                .samplingRate(samplingRate)
                .withTestingApp();
        if (classpath != null) {
            application.classpath(classpath);
        }
        agentProperties.forEach(application::agent);
        return application;
    }

    /**
     * Starts the application once per {@code service}, at 100% (see {@link #application}): the tests of a
     * class share the run, and {@link ClientAppRun#done()} waits for its calls.
     */
    protected static ClientAppRun launch(String service, String mainClass, String javaHome, String classpath,
                                         Map<String, String> agentProperties) {
        return RUNS.computeIfAbsent(service, k -> ClientAppRun.start(
                application(mainClass, javaHome, classpath, service, 100, agentProperties), service));
    }

    /**
     * The test classes ({@code -Dargus.test.app}) and the jars of one library version
     * ({@code <argus.test.libs>/<libs>/}, one folder per tested version).
     */
    protected static String libraryClasspath(String libs) {
        return libraryClasspath(System.getProperty("argus.test.app"), Paths.get(System.getProperty("argus.test.libs"), libs));
    }

    /** {@code appClasses} and every jar in {@code jars} (which must exist). */
    protected static String libraryClasspath(String appClasses, Path jars) {
        assertThat(Files.isDirectory(jars)).as("jars in %s", jars).isTrue();
        return appClasses + File.pathSeparator + jars.resolve("*");
    }

    /** A trace once it holds at least {@code spans} spans. */
    protected static JsonNode awaitTrace(TraceContext root, int spans) {
        return awaitTrace(root.traceId(), spans);
    }

    /** The CLIENT span of the call tagged {@code tag}: its trace is its hand-made root span and this one child. */
    protected static JsonNode clientSpan(ClientAppRun run, String tag) {
        TraceContext root = run.root(tag);
        assertThat(root).as("root of %s", tag).isNotNull();
        JsonNode trace = awaitTrace(root, 2);
        assertThat(trace.path("spans")).as("spans of %s", tag).hasSize(2);
        assertThat(span(trace, "SERVER").path("spanId").asText()).isEqualToIgnoringCase(root.spanId());
        JsonNode clientSpan = span(trace, "CLIENT");
        assertThat(clientSpan.path("parentSpanId").asText()).as("parent of %s", tag).isEqualToIgnoringCase(root.spanId());
        return clientSpan;
    }

    /** The downstream server received the client span itself as its (sampled) parent. */
    protected static void assertReceivedFrom(Map<String, String> received, TraceContext root, JsonNode clientSpan) {
        TraceContext context = TraceContext.parse(ClientAppRun.value(received, "traceparent"));
        assertThat(context).as("traceparent received in %s", received).isNotNull();
        assertThat(context.traceId()).isEqualTo(root.traceId());
        assertThat(context.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        assertThat(received.get("traceparent")).endsWith("-01");
    }

    /**
     * The call tagged {@code tag} is the only child of its root span, went to
     * {@code http://127.0.0.1:<port><pathAndQuery>}, and the downstream server received its context.
     */
    protected static JsonNode assertChildCall(ClientAppRun run, String tag, int port, String pathAndQuery) {
        JsonNode clientSpan = clientSpan(run, tag);
        assertThat(clientSpan.path("tags").path("http.url").asText()).isEqualTo("http://127.0.0.1:" + port + pathAndQuery);
        assertReceivedFrom(run.first("RECEIVED", tag), run.root(tag), clientSpan);
        return clientSpan;
    }

    /**
     * The call tagged {@code tag}, a GET of {@code /ok?tag=<tag>} made under its hand-made root span: one
     * client span "GET 127.0.0.1" with the method, URL, peer and status 200, whose context reached the
     * downstream server with the application's own {@code x-test} header, and the application got the
     * server's answer.
     */
    protected static JsonNode assertTracedGet(ClientAppRun run, String tag) {
        JsonNode clientSpan = assertChildCall(run, tag, run.port(), "/ok?tag=" + tag);
        assertThat(clientSpan.path("name").asText()).isEqualTo("GET 127.0.0.1");
        assertThat(clientSpan.path("status").asText()).as(tag).isNotEqualTo("ERROR");
        JsonNode tags = clientSpan.path("tags");
        assertThat(tags.path("http.method").asText()).isEqualTo("GET");
        assertThat(tags.path("peer").asText()).isEqualTo("127.0.0.1:" + run.port());
        assertThat(tags.path("http.status_code").asText()).as(tag).isEqualTo("200");
        assertThat(run.first("RECEIVED", tag).get("x-test")).as("the application's own header").isEqualTo(tag);
        assertThat(run.first("STATUS", tag).get("code")).isEqualTo("200");
        assertThat(run.first("STATUS", tag).get("body")).isEqualTo("hello-" + tag);
        return clientSpan;
    }

    /**
     * The call tagged {@code tag} was made under a server span that joined a sampled inbound context
     * with a tracestate ({@code Downstream.tracedWithState}): the downstream server received that
     * tracestate, in the inbound trace.
     */
    protected static void assertTracestatePassedOn(ClientAppRun run, String tag) {
        Map<String, String> received = run.first("RECEIVED", tag);
        assertThat(received.get("tracestate")).isEqualTo("vendor=argus");
        assertThat(TraceContext.parse(received.get("traceparent")).traceId()).isEqualTo(run.first("INBOUND", tag).get("traceId"));
    }

    /**
     * At 0%, the call tagged {@code tag}, made under a server span that joined a sampled inbound context
     * ({@code Downstream.tracedWithState}), is still traced: its client span is in the inbound trace, a
     * child of that server span, and the downstream server received it as its parent.
     */
    protected static void assertInboundContextFollowed(ClientAppRun run, String tag) {
        String inbound = run.first("INBOUND", tag).get("traceId");
        JsonNode trace = awaitTrace(inbound, 2);
        JsonNode clientSpan = span(trace, "CLIENT");
        TraceContext received = TraceContext.parse(run.receivedTraceparent(tag));
        assertThat(received.traceId()).isEqualTo(inbound);
        assertThat(received.spanId()).isEqualToIgnoringCase(clientSpan.path("spanId").asText());
        assertThat(clientSpan.path("parentSpanId").asText()).isEqualToIgnoringCase(span(trace, "SERVER").path("spanId").asText());
    }

    /**
     * With the plugin off, once all metrics are stored: no client metric, and the trace of the call
     * tagged {@code tracedTag} holds only its hand-made server span.
     */
    protected static void assertNoClientRecorded(ClientAppRun run, String tracedTag) {
        awaitAllMetricsStored(run);
        assertThat(clientRows(run, null)).isEmpty();
        JsonNode trace = awaitTrace(run.root(tracedTag), 1);
        assertThat(trace.path("spans")).hasSize(1);
        assertThat(trace.path("spans").get(0).path("kind").asText()).isEqualTo("SERVER");
    }

    /** The exception message the application printed for the call tagged {@code tag}, without the run's closed port. */
    protected static String errorMessage(ClientAppRun run, String tag) {
        return run.first("ERROR", tag).get("message").replace(String.valueOf(run.closedPort()), "<port>");
    }

    /** Waits until the collector has the application's {@code /after} marker: every metric recorded before it is stored. */
    protected static void awaitAllMetricsStored(ClientAppRun run) {
        run.app.awaitLine("^AFTER$", WAIT);
        CollectorClient.await("the /after marker of " + run.service, WAIT,
                () -> api.serverMetric(run.service, "GET", "/after"), row -> row.path("count").asLong() >= 1);
    }

    /** The client metric rows of a run (for one target host, unless null). */
    protected static List<JsonNode> clientRows(ClientAppRun run, String host) {
        List<JsonNode> rows = new ArrayList<>();
        for (JsonNode row : api.httpMetrics(run.service)) {
            if ("client".equals(row.path("kind").asText()) && (host == null || host.equals(row.path("target").asText()))) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** The row of {@code method} and {@code status} (0: no response), or null. */
    protected static JsonNode row(List<JsonNode> rows, String method, int status) {
        for (JsonNode row : rows) {
            if (method.equals(row.path("method").asText()) && row.path("status").asInt() == status) {
                return row;
            }
        }
        return null;
    }

    /**
     * The client metrics of a run's calls to the downstream server (127.0.0.1), once all are stored:
     * {@code ok} GETs answered 200, {@code failed} without a response, one 404 and one 500 (both errors),
     * and no other client row.
     */
    protected static void assertCallsCounted(ClientAppRun run, long ok, long failed) {
        awaitAllMetricsStored(run);
        List<JsonNode> rows = clientRows(run, "127.0.0.1");
        assertRow(rows, "GET", 200, ok, 0);
        assertThat(row(rows, "GET", 200).path("maxMs").asDouble()).isGreaterThan(0);
        assertRow(rows, "GET", 0, failed, failed);
        assertRow(rows, "GET", 404, 1, 1);
        assertRow(rows, "GET", 500, 1, 1);
        assertThat(clientRows(run, null)).as("no other client rows").hasSize(4);
    }

    protected static void assertRow(List<JsonNode> rows, String method, int status, long count, long errors) {
        JsonNode row = row(rows, method, status);
        assertThat(row).as("%s %d in %s", method, status, rows).isNotNull();
        assertThat(row.path("count").asLong()).as("count of %s %d", method, status).isEqualTo(count);
        assertThat(row.path("errors").asLong()).as("errors of %s %d", method, status).isEqualTo(errors);
    }

    /** The {@code http.url} of every CLIENT span in the traces of a run. */
    protected static List<String> clientUrls(ClientAppRun run) {
        List<String> urls = new ArrayList<>();
        for (JsonNode summary : api.traces(run.service, 200)) {
            for (JsonNode span : spans(api.trace(summary.path("traceId").asText()), "CLIENT")) {
                urls.add(span.path("tags").path("http.url").asText());
            }
        }
        return urls;
    }
}
